package io.cohort.systest.programs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Never calls the API: prints "rank R cpus LIST", LIST being the processors this process may run on
 * as Linux lists them ({@code Cpus_allowed_list} of /proc/self/status), so a test can see a binding,
 * and then "rank R shares its processor" where the io-manager said so ({@code COHORT_CPU_SHARED=1}).
 * With the argument {@code wait}, rank 0 then reads its stdin to the end before it exits, so a test
 * decides how long the job holds its processors.
 */
public final class WhichCpus {
    private WhichCpus() {
    }

    public static void main(String[] args) throws IOException {
        String cpus = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("Cpus_allowed_list:"))
                .map(l -> l.substring("Cpus_allowed_list:".length()).trim()).findFirst().orElse("?");
        System.out.println("rank " + System.getenv("COHORT_RANK") + " cpus " + cpus);
        if ("1".equals(System.getenv("COHORT_CPU_SHARED"))) {
            System.out.println("rank " + System.getenv("COHORT_RANK") + " shares its processor");
        }
        if (args.length > 0 && args[0].equals("wait")) {
            System.out.flush();
            System.in.transferTo(java.io.OutputStream.nullOutputStream());
        }
    }
}
