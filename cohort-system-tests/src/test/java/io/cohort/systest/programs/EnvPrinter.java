package io.cohort.systest.programs;

/** Never calls the API: prints the variables the launcher set, one line. */
public final class EnvPrinter {
    private EnvPrinter() {
    }

    public static void main(String[] args) {
        StringBuilder b = new StringBuilder("env");
        for (String name : new String[] {"COHORT_RANK", "COHORT_SIZE", "COHORT_LOCAL_RANK", "COHORT_LOCAL_SIZE",
                "COHORT_JOB_ID", "COHORT_HOST", "COHORT_IDLE", "FOO", "FWD"}) {
            b.append(' ').append(name).append('=').append(System.getenv(name));
        }
        b.append(" args=").append(String.join(",", args));
        System.out.println(b);
    }
}
