package io.cohort.systest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A merged stack tree as {@code cohort stacks} prints it, read back: the header (from the line that
 * starts with "job " to the first blank line) with its ranks that gave no stacks, then the sections
 * such as "in collectives:" and "waiting for each other:" (each a title line and its lines as
 * printed, up to the next blank line), then the blocks. A line that starts, after its indentation,
 * with a rank set opens a block; the lines that follow, up to the next such line, belong to it.
 */
record StackBlocks(String header, Map<String, String> silent, Map<String, List<String>> sections, List<Block> blocks) {
    private static final Pattern OPENING = Pattern.compile("^ *(\\[[0-9,\\-]+\\])(?: x\\d+| \\(\\d+ threads\\))? +(.*)$");

    record Block(String ranks, List<String> lines) {
        boolean has(String text) {
            return lines.stream().anyMatch(l -> l.contains(text));
        }
    }

    static StackBlocks parse(List<String> output) {
        int start = 0;
        while (start < output.size() && !output.get(start).startsWith("job ")) {
            start++;
        }
        if (start == output.size()) {
            return new StackBlocks("", Map.of(), Map.of(), List.of());
        }
        String header = output.get(start);
        Map<String, String> silent = new LinkedHashMap<>();
        int i = start + 1;
        for (; i < output.size() && !output.get(i).isBlank(); i++) {
            Matcher m = OPENING.matcher(output.get(i));
            if (m.matches()) {
                silent.put(m.group(1), m.group(2).trim());
            }
        }
        Map<String, List<String>> sections = new LinkedHashMap<>();
        while (i + 1 < output.size() && output.get(i + 1).matches("[a-z][^\\[]*:")) {
            List<String> lines = new ArrayList<>();
            sections.put(output.get(i + 1), lines);
            for (i += 2; i < output.size() && !output.get(i).isBlank(); i++) {
                lines.add(output.get(i));
            }
        }
        List<Block> blocks = new ArrayList<>();
        Block open = null;
        for (i++; i < output.size(); i++) {
            String line = output.get(i);
            if (line.isBlank() || line.startsWith("cohort: ")) {
                break; // the end of this tree (a launcher line may follow it on stderr)
            }
            Matcher m = OPENING.matcher(line);
            if (m.matches()) {
                open = new Block(m.group(1), new ArrayList<>());
                open.lines().add(m.group(2).trim());
                blocks.add(open);
            } else if (open != null) {
                open.lines().add(line.trim());
            }
        }
        return new StackBlocks(header, silent, sections, blocks);
    }

    /** The lines of the "in collectives:" section (none if there is none). */
    List<String> collectives() {
        return sections.getOrDefault("in collectives:", List.of());
    }

    /** The lines of the "waiting for each other:" section (none if there is none). */
    List<String> waitCycles() {
        return sections.getOrDefault("waiting for each other:", List.of());
    }

    /** The one block with exactly these ranks whose lines contain {@code text}, or null. */
    Block find(String ranks, String text) {
        List<Block> found = blocks.stream().filter(b -> b.ranks().equals(ranks) && b.has(text)).toList();
        return found.size() == 1 ? found.get(0) : null;
    }

    /** How many blocks contain {@code text}. */
    long count(String text) {
        return blocks.stream().filter(b -> b.has(text)).count();
    }
}
