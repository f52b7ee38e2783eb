package io.cohort.daemon;

/** A child process for {@link ProcessSchedulerTest}: four sleeping threads, then "ready" on stdout, then sleep until killed. */
public final class ThreadedSleeper {
    private ThreadedSleeper() {
    }

    public static void main(String[] args) throws InterruptedException {
        for (int i = 0; i < 4; i++) {
            Thread t = new Thread(() -> {
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException ignored) {
                    // Exit.
                }
            }, "sleeper-" + i);
            t.setDaemon(true);
            t.start();
        }
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(120_000);
    }
}
