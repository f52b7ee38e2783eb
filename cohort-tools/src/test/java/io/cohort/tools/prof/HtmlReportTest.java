package io.cohort.tools.prof;

import demo.RingProgram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTML report of the ring: well-formed (it parses as XML), self-contained, with its plots, a heat
 * map whose coloured cells are exactly the ring's edges, and names from the recordings escaped.
 */
@Timeout(120)
class HtmlReportTest {
    static ProfileSet set;

    @BeforeAll
    static void record() {
        set = RingFixture.load();
    }

    private static Document parse(String html) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<Element> elements(Document d, String name) {
        NodeList l = d.getElementsByTagNameNS("*", name);
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < l.getLength(); i++) {
            out.add((Element) l.item(i));
        }
        return out;
    }

    @Test
    void isWellFormedSelfContainedAndHasItsPlots() throws Exception {
        String html = HtmlReport.render(new ProfileAnalysis(set, Scope.allPeers(set), TableLimit.DEFAULT));
        Document d = parse(html);
        assertEquals("html", d.getDocumentElement().getLocalName());
        assertEquals(5, elements(d, "svg").size(), "time per peer, two heat maps, sizes, hottest methods");
        assertTrue(elements(d, "script").isEmpty(), "no JavaScript");
        assertTrue(elements(d, "link").isEmpty() && elements(d, "img").isEmpty(), "nothing fetched");
        Matcher url = Pattern.compile("(?:src|href)\\s*=|url\\((?!#)|https?://(?!www\\.w3\\.org/2000/svg)").matcher(html);
        assertFalse(url.find(), "no external reference: " + (url.find(0) ? html.substring(url.start(), Math.min(html.length(), url.start() + 60)) : ""));
        assertTrue(html.contains("RingProgram.crunch"), "hottest methods");
        assertTrue(html.contains("<code>send</code>"), "tables");
    }

    @Test
    void heatMapsColourExactlyTheRingsEdges() throws Exception {
        Document d = parse(HtmlReport.render(new ProfileAnalysis(set, Scope.allPeers(set), TableLimit.DEFAULT)));
        Pattern cell = Pattern.compile("(\\d+) \u2192 (\\d+): .*");
        int cells = 0;
        for (Element rect : elements(d, "rect")) {
            List<Element> titles = new ArrayList<>();
            NodeList kids = rect.getChildNodes();
            for (int i = 0; i < kids.getLength(); i++) {
                if (kids.item(i) instanceof Element e && e.getLocalName().equals("title")) {
                    titles.add(e);
                }
            }
            if (titles.isEmpty()) {
                continue;
            }
            Matcher m = cell.matcher(titles.get(0).getTextContent());
            if (!m.matches()) {
                continue;
            }
            cells++;
            int from = Integer.parseInt(m.group(1));
            int to = Integer.parseInt(m.group(2));
            boolean edge = to == (from + 1) % RingFixture.SIZE;
            assertEquals(edge, !rect.getAttribute("fill").equals(SvgCharts.EMPTY_CELL), from + "->" + to + " " + titles.get(0).getTextContent());
            if (edge) {
                assertTrue(titles.get(0).getTextContent().contains("10 messages"), titles.get(0).getTextContent());
            }
        }
        assertEquals(2 * RingFixture.SIZE * RingFixture.SIZE, cells, "a bytes and a messages map, a cell per pair");
    }

    @Test
    void rankScopeOutlinesItsRowAndColumn() throws Exception {
        Document d = parse(HtmlReport.render(new ProfileAnalysis(set, Scope.rank(set, 2), TableLimit.DEFAULT)));
        long outlines = elements(d, "rect").stream().filter(r -> r.getAttribute("class").equals("highlight")).count();
        assertEquals(4, outlines, "row and column, in both maps");
        assertTrue(d.getDocumentElement().getTextContent().contains("rank 2"));
    }

    @Test
    void namesFromRecordingsAreEscaped(@TempDir Path dir) throws Exception {
        String region = "<b>phase & \"one\"</b>";
        FakePeer.record(dir, 0, 2, FakePeer.Options.of("A<pp>", "host&co"), w -> {
            w.region(region, () -> RingProgram.crunch(10));
            w.send(1, 0, 64);
        });
        FakePeer.record(dir, 1, 2, FakePeer.Options.of("A<pp>", "host&co"), w -> w.recv(0, 0, 64));
        ProfileSet s = ProfileSet.load(dir, w -> {
            throw new AssertionError(w);
        });
        String html = HtmlReport.render(new ProfileAnalysis(s, Scope.allPeers(s), TableLimit.DEFAULT));
        assertFalse(html.contains("<b>"), "no markup from a name");
        assertFalse(html.contains("<pp>"));
        Document d = parse(html);
        String text = d.getDocumentElement().getTextContent();
        assertTrue(text.contains(region), "the name reads as written");
        assertTrue(text.contains("A<pp>") && text.contains("host&co"));
    }
}
