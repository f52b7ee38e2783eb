package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(5)
class LineSplitterTest {
    private final List<String> lines = new ArrayList<>();

    private LineSplitter splitter(int max) {
        return new LineSplitter(max, l -> lines.add(new String(l, StandardCharsets.UTF_8)));
    }

    private static void feed(LineSplitter s, String text) throws IOException {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        s.feed(b, 0, b.length);
    }

    @Test
    void wholeLinesAcrossChunks() throws IOException {
        LineSplitter s = splitter(100);
        feed(s, "hel");
        feed(s, "lo\nwor");
        feed(s, "ld\nx\n");
        assertEquals(List.of("hello\n", "world\n", "x\n"), lines);
        s.finish();
        assertEquals(3, lines.size(), "nothing left over");
    }

    @Test
    void partialLastLineFlushedAtEof() throws IOException {
        LineSplitter s = splitter(100);
        feed(s, "a\nno newline");
        assertEquals(List.of("a\n"), lines);
        s.finish();
        assertEquals(List.of("a\n", "no newline"), lines);
    }

    @Test
    void crlfKeptIntact() throws IOException {
        LineSplitter s = splitter(100);
        feed(s, "one\r\ntwo\r");
        feed(s, "\n");
        assertEquals(List.of("one\r\n", "two\r\n"), lines);
    }

    @Test
    void emptyLines() throws IOException {
        LineSplitter s = splitter(100);
        feed(s, "\n\n");
        assertEquals(List.of("\n", "\n"), lines);
    }

    @Test
    void longLinesAreCutAtTheLimitWithoutLosingBytes() throws IOException {
        LineSplitter s = splitter(4);
        feed(s, "abcdefghij\nxy");
        s.finish();
        assertEquals(List.of("abcd", "efgh", "ij\n", "xy"), lines);
    }

    @Test
    void defaultLimitIsOneMebibyte() throws IOException {
        List<byte[]> out = new ArrayList<>();
        LineSplitter s = new LineSplitter(out::add);
        byte[] big = new byte[LineSplitter.MAX_LINE_DEFAULT + 10];
        java.util.Arrays.fill(big, (byte) 'z');
        big[big.length - 1] = '\n';
        s.feed(big, 0, big.length);
        assertEquals(2, out.size());
        assertEquals(LineSplitter.MAX_LINE_DEFAULT, out.get(0).length);
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        out.forEach(joined::writeBytes);
        assertEquals(big.length, joined.size());
    }
}
