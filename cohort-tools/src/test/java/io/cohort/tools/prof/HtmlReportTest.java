package io.cohort.tools.prof;

import demo.RingProgram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTML report of the ring: well-formed (it parses as XML), self-contained, with its plots, a heat
 * map whose coloured cells are exactly the ring's edges, a timeline with a lane per peer (and thread)
 * and an arrow along each of the ring's messages, and names from the recordings escaped.
 */
@Timeout(120)
class HtmlReportTest {
    static ProfileSet set;

    @BeforeAll
    static void record() {
        set = RingFixture.load();
    }

    static Document parse(String html) throws Exception {
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

    /** The elements named {@code name} under {@code root}, by a walk of the tree (a big page's NodeList is slow to index). */
    static List<Element> elements(Element root, String name) {
        List<Element> out = new ArrayList<>();
        collect(root, name, out);
        return out;
    }

    private static void collect(Node n, String name, List<Element> out) {
        for (Node c = n.getFirstChild(); c != null; c = c.getNextSibling()) {
            if (c instanceof Element e) {
                if (name.equals(e.getLocalName())) {
                    out.add(e);
                }
                collect(e, name, out);
            }
        }
    }

    /** The text of an element's own {@code <title>} child, or null. */
    static String title(Element e) {
        NodeList kids = e.getChildNodes();
        for (int i = 0; i < kids.getLength(); i++) {
            if (kids.item(i) instanceof Element t && t.getLocalName().equals("title")) {
                return t.getTextContent();
            }
        }
        return null;
    }

    static double number(Element e, String attribute) {
        return Double.parseDouble(e.getAttribute(attribute));
    }

    static Element timeline(Document d) {
        return elements(d, "section").stream().filter(e -> e.getAttribute("id").equals("timeline")).findFirst()
                .orElseThrow(() -> new AssertionError("no timeline section"));
    }

    /** The timeline's bars (rects with a tooltip) whose class includes {@code cls}: tl-send, tl-region... */
    static List<Element> bars(Element timeline, String cls) {
        return bars(elements(timeline, "rect"), cls);
    }

    static List<Element> bars(List<Element> rects, String cls) {
        return rects.stream().filter(r -> title(r) != null)
                .filter(r -> List.of(r.getAttribute("class").split(" ")).contains(cls)).toList();
    }

    /** The message arrows (the legend's sample line has no tooltip). */
    static List<Element> arrows(Element timeline) {
        return elements(timeline, "line").stream().filter(l -> l.getAttribute("class").equals("tl-msg") && title(l) != null).toList();
    }

    @Test
    void isWellFormedSelfContainedAndHasItsPlots() throws Exception {
        String html = HtmlReport.render(new ProfileAnalysis(set, Scope.allPeers(set), TableLimit.DEFAULT));
        Document d = parse(html);
        assertEquals("html", d.getDocumentElement().getLocalName());
        assertEquals(6, elements(d, "svg").size(), "time per peer, timeline, two heat maps, sizes, hottest methods");
        List<String> sections = elements(d, "h2").stream().map(Element::getTextContent).toList();
        assertEquals(List.of("Time per peer", "Timeline", "Communication matrix"), sections.subList(0, 3), "the timeline after the time split");
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
    void timelineHasALanePerPeerABarPerEventAndAnArrowPerMessage() throws Exception {
        Element t = timeline(parse(HtmlReport.render(new ProfileAnalysis(set, Scope.allPeers(set), TableLimit.DEFAULT))));
        Map<Integer, Element> lanes = new HashMap<>();
        Pattern laneName = Pattern.compile("rank (\\d+) \\((node-[ab])\\), thread main");
        for (Element lane : elements(t, "rect").stream().filter(r -> r.getAttribute("class").startsWith("tl-lane")).toList()) {
            Matcher m = laneName.matcher(title(lane));
            assertTrue(m.matches(), title(lane));
            int rank = Integer.parseInt(m.group(1));
            assertEquals(rank < 2 ? "node-a" : "node-b", m.group(2));
            assertNull(lanes.put(rank, lane), "one lane per peer: its one thread");
        }
        assertEquals(RingFixture.SIZE, lanes.size());

        int messages = RingFixture.SIZE * RingFixture.LAPS;
        List<Element> sends = bars(t, "tl-send");
        List<Element> receives = bars(t, "tl-receive");
        assertEquals(messages, sends.size());
        assertEquals(messages, receives.size());
        assertEquals(1, bars(t, "tl-probe").size());
        assertEquals(1, bars(t, "tl-wait").size());
        assertEquals(RingFixture.SIZE, bars(t, "tl-collective").size());
        assertEquals(messages, bars(t, "tl-region").size(), "a lap region per lap and peer");
        for (Element bar : elements(t, "rect")) {
            if (title(bar) != null && bar.getAttribute("class").startsWith("tl-") && !bar.getAttribute("class").startsWith("tl-lane")) {
                assertTrue(number(bar, "width") >= 1, "even a short event shows: " + title(bar));
            }
        }
        String send = title(sends.get(0));
        assertTrue(send.startsWith("send \u2192 rank 1\nrank 0 (node-a), thread main\ntag 0, 1000 B"), send);
        // A simulated send spins for tens of microseconds, but a loaded machine can stretch it to milliseconds.
        assertTrue(Pattern.compile("\\d (ns|\u00b5s|ms|s), ").matcher(send).find() && send.contains("\ndemo.RingProgram."),
                "duration and call site: " + send);

        List<Element> arrows = arrows(t);
        assertEquals(messages, arrows.size(), "one arrow per message");
        Pattern message = Pattern.compile("message rank (\\d+) \u2192 rank (\\d+), tag \\d+, 1000 B");
        for (Element a : arrows) {
            Matcher m = message.matcher(title(a));
            assertTrue(m.matches(), title(a));
            int from = Integer.parseInt(m.group(1));
            int to = Integer.parseInt(m.group(2));
            assertEquals((from + 1) % RingFixture.SIZE, to, "a ring edge");
            assertTrue(within(number(a, "y1"), lanes.get(from)) && within(number(a, "y2"), lanes.get(to)),
                    "from the sender's lane to the receiver's: " + title(a));
            assertTrue(hits(sends, number(a, "x1"), lanes.get(from)), "starts at a send of rank " + from);
            assertTrue(hits(receives, number(a, "x2"), lanes.get(to)), "ends at a receive of rank " + to);
            assertEquals("url(#tl-head)", a.getAttribute("marker-end"));
        }
    }

    private static boolean within(double y, Element lane) {
        return number(lane, "y") <= y && y <= number(lane, "y") + number(lane, "height");
    }

    /**
     * Some bar in the lane spans x. Coordinates are written rounded to 0.1 px, so a bar's end (its x
     * plus its width, two rounded numbers) and an arrow's end (a third) can be 0.15 px apart: allow 0.2.
     */
    private static boolean hits(List<Element> bars, double x, Element lane) {
        return bars.stream().anyMatch(b -> within(number(b, "y"), lane) && number(b, "x") - 0.2 <= x
                && x <= number(b, "x") + number(b, "width") + 0.2);
    }

    @Test
    void oneRanksTimelineHasItsLaneAndNoArrows() throws Exception {
        Element t = timeline(parse(HtmlReport.render(new ProfileAnalysis(set, Scope.rank(set, 2), TableLimit.DEFAULT))));
        assertEquals(1, elements(t, "rect").stream().filter(r -> r.getAttribute("class").startsWith("tl-lane")).count());
        assertEquals(0, arrows(t).size());
        assertEquals(RingFixture.LAPS, bars(t, "tl-send").size());
        assertTrue(t.getTextContent().contains("Only rank 2 is in scope, so no message has an arrow."));
    }

    @Test
    void threadsOfAPeerGetLanesOfTheirOwn(@TempDir Path dir) throws Exception {
        String worker = "w<1>&\"x\"";
        FakePeer.record(dir, 0, 2, FakePeer.Options.of("Threads", "h"), w -> {
            w.send(1, 0, 8);
            Thread t = new Thread(() -> w.region("on the side", () -> w.send(1, 1, 16)), worker);
            t.start();
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        FakePeer.record(dir, 1, 2, FakePeer.Options.of("Threads", "h"), w -> {
            w.recv(0, 0, 8);
            w.recv(0, 1, 16);
        });
        ProfileSet s = ProfileSet.load(dir, w -> {
            throw new AssertionError(w);
        });
        String html = HtmlReport.render(new ProfileAnalysis(s, Scope.allPeers(s), TableLimit.DEFAULT));
        assertFalse(html.contains("w<1>"), "the thread's name is escaped");
        Element t = timeline(parse(html));
        List<String> lanes = elements(t, "rect").stream().filter(r -> r.getAttribute("class").startsWith("tl-lane")).map(HtmlReportTest::title)
                .toList();
        assertEquals(List.of("rank 0 (h), thread main", "rank 0 (h), thread " + worker, "rank 1 (h), thread main"), lanes);
        assertTrue(t.getTextContent().contains(worker), "the lane is labelled with its thread");
        assertEquals(2, arrows(t).size());
        assertEquals(1, bars(t, "tl-region").size());
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
        Element t = timeline(d);
        assertTrue(bars(t, "tl-region").stream().anyMatch(b -> title(b).startsWith("region " + region + "\nrank 0 (host&co)")),
                "the region's tooltip in the timeline");
        assertTrue(t.getTextContent().contains(region), "and the legend names it");
    }
}
