package io.cohort.tools.prof;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The communication matrix of the largest job: its memory and its pictures follow the traffic, not the job's size squared. */
@Timeout(60)
class CommMatrixTest {
    @TempDir
    Path dir;

    private void summary(int rank, int size, int to, int messages) throws Exception {
        Files.write(dir.resolve("Big.prof." + rank + ".tsv"), List.of(
                "format\tcohort-profile-summary\t1",
                "peer\t" + rank + "\t" + size + "\tjob9\thost-" + rank + "\tcom.x.Big\t" + (100 + rank),
                "job\t1700000000000000000\t2000000000\t1",
                "comm\tsend\tsend\t\t0\t" + to + "\t7\t" + messages + "\t" + 100 * messages + "\t30000000\t100\t100\t20000000"));
    }

    @Test
    void aJobOf65536RanksIsDrawnInBlocksAndListedByPair() throws Exception {
        int size = 65536;
        summary(0, size, size - 1, 3);
        summary(size - 1, size, 0, 5);
        summary(700, size, 701, 2);
        List<String> warnings = new ArrayList<>();
        ProfileSet set = ProfileSet.load(dir, warnings::add);
        CommMatrix m = CommMatrix.of(set);
        assertEquals(size, m.size());
        assertEquals(3, m.messages(0, size - 1));
        assertEquals(500, m.bytes(size - 1, 0));
        assertEquals(0, m.messages(1, 2));
        List<CommMatrix.Pair> pairs = new ArrayList<>();
        m.pairs().forEach(pairs::add);
        assertEquals(List.of(new CommMatrix.Pair(0, size - 1, 3, 300), new CommMatrix.Pair(700, 701, 2, 200),
                new CommMatrix.Pair(size - 1, 0, 5, 500)), pairs, "by sender, then receiver");
        assertEquals(300, m.bytesSentBy(0));
        assertEquals(500, m.bytesReceivedBy(0));

        String svg = SvgCharts.heatMap(m, true, size - 1, "g");
        int rects = svg.split("<rect", -1).length - 1;
        assertTrue(rects <= SvgCharts.HEAT_MAP_MAX_CELLS * SvgCharts.HEAT_MAP_MAX_CELLS + 3, rects + " rectangles");
        assertTrue(svg.contains("512 ranks to a cell"), "the blocks are said");
        assertTrue(svg.contains("<title>ranks 0\u2013511 \u2192 ranks 65024\u201365535: 300 B in 3 messages</title>"),
                "a block's tooltip");
        assertTrue(svg.contains("ranks 512\u20131023 \u2192 ranks 512\u20131023: 200 B in 2 messages"), "700 -> 701 in one block");

        String text = TextReport.render(new ProfileAnalysis(set, Scope.allPeers(set), TableLimit.DEFAULT));
        assertTrue(text.contains("pairs that exchanged point-to-point messages"), text);
    }
}
