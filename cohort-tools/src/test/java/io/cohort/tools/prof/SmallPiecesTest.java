package io.cohort.tools.prof;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Size classes, call-site packages, file names, and the formats of numbers, JSON and HTML. */
@Timeout(10)
class SmallPiecesTest {
    @Test
    void sizeClassesArePowersOfTwo() {
        assertEquals(0, SizeHistogram.classOf(0));
        assertEquals(1, SizeHistogram.classOf(1));
        assertEquals(2, SizeHistogram.classOf(2));
        assertEquals(2, SizeHistogram.classOf(3));
        assertEquals(10, SizeHistogram.classOf(1000));
        assertEquals(11, SizeHistogram.classOf(1024));
        assertEquals(31, SizeHistogram.classOf(Integer.MAX_VALUE));
        assertEquals(512, SizeHistogram.lowerBound(10));
        assertEquals("512", SizeHistogram.label(10));
        assertEquals("1K", SizeHistogram.label(11));
        assertEquals("64M", SizeHistogram.label(27));
        SizeHistogram h = new SizeHistogram("send");
        h.add(8);
        h.add(1000);
        h.add(-1);
        assertEquals(2, h.count());
        assertEquals(8, h.min());
        assertEquals(1000, h.max());
        assertEquals(504.0, h.mean());
        assertEquals(4, h.lowestClass());
        assertEquals(10, h.highestClass());
    }

    @Test
    void callSitesSkipTheLibraryButNotTheExamples() {
        assertFalse(CallSite.isUserCode("io.cohort.comm.WorldCommunicator"));
        assertFalse(CallSite.isUserCode("java.util.concurrent.ForkJoinTask"));
        assertFalse(CallSite.isUserCode("jdk.internal.reflect.DirectMethodHandleAccessor"));
        assertFalse(CallSite.isUserCode("sun.nio.ch.SocketChannelImpl"));
        assertTrue(CallSite.isUserCode("io.cohort.examples.Ring"));
        assertTrue(CallSite.isUserCode("com.example.Solver"));
        assertTrue(CallSite.isUserCode("javax.swing.JFrame"), "only the contract's four prefixes are skipped");
        CallSite s = new CallSite("io.cohort.examples.Ring", "main", 27);
        assertEquals("Ring.main:27", s.shortName());
        assertEquals("io.cohort.examples.Ring.main:27", s.fullName());
        assertEquals("Solver.run", new CallSite("Solver", "run", -1).shortName());
    }

    @Test
    void fileNamesGiveApplicationAndRank() {
        assertEquals(new ProfileFileName("Ring", 3), ProfileFileName.parse(java.nio.file.Path.of("/x/Ring.prof.3.jfr")));
        assertEquals(new ProfileFileName("my.app.Main", 12), ProfileFileName.parse(java.nio.file.Path.of("my.app.Main.prof.12.jfr")));
        assertNull(ProfileFileName.parse(java.nio.file.Path.of("Ring.3.jfr")));
        assertNull(ProfileFileName.parse(java.nio.file.Path.of("Ring.prof.x.jfr")));
    }

    @Test
    void numbers() {
        assertEquals("10", Fmt.count(10));
        assertEquals("2.5", Fmt.count(2.5));
        assertEquals("0.25", Fmt.count(0.25));
        assertEquals("0.33", Fmt.count(1 / 3.0));
        assertEquals("0-3,5,7-8", Fmt.ranks(List.of(0, 1, 2, 3, 5, 7, 8)));
        assertEquals("1.5 KiB", Fmt.bytes(1536));
        assertEquals("999 B", Fmt.bytes(999));
        assertEquals("12.3 µs", Fmt.duration(12_345));
        assertEquals("1.234567", Fmt.seconds(1_234_567_000));
        assertEquals("12", Fmt.trimmed(12.04, 1));
        assertEquals("12.5", Fmt.trimmed(12.46, 1));
        assertEquals("0", Fmt.trimmed(-0.04, 1), "no minus zero");
        assertEquals("-1.5", Fmt.trimmed(-1.5, 1));
        assertEquals("1364.213", Fmt.millisShort(1_364_212_900));
        assertEquals("0.05", Fmt.millisShort(50_000));
        assertEquals("120", Fmt.millisShort(120_000_000));
        assertEquals("12.5", SvgCharts.f(12.5));
    }

    @Test
    void jsonMicrosAreExact() {
        StringBuilder b = new StringBuilder();
        Json.micros(b, 1_234_567_891_234L);
        assertEquals("1234567891.234", b.toString());
        b.setLength(0);
        Json.micros(b, 5);
        assertEquals("0.005", b.toString());
        assertEquals("\"a\\\"b\\\\c\\n\\u0001\\ud800\\u2028é\"", Json.string("a\"b\\c\n\u0001\ud800\u2028é"));
    }

    @Test
    void htmlEscapesMarkupAndDropsWhatXmlForbids() {
        assertEquals("&lt;b&gt; &amp; &quot;x&quot; &#39;y&#39;", Html.escape("<b> & \"x\" 'y'"));
        assertEquals("a\ufffdb\ufffdc", Html.escape("a\u0001b\udc00c"));
        assertEquals("\ud83d\ude00", Html.escape("\ud83d\ude00"), "a valid pair stays");
    }
}
