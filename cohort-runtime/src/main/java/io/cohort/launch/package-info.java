/**
 * The launcher side of a job: the controlling process ({@link io.cohort.launch.Controller}), which is
 * the job's rendezvous point and decides its exit status, and the io-manager
 * ({@link io.cohort.launch.IoManager}), which starts the peers on one host, forwards their standard
 * streams line by line and reports their exits.
 *
 * <pre>
 *  cohort run ──► Controller ──(LaunchAgent: setsid / ssh / ip netns exec)──► IoManager ──setsid──► peers
 *                     ▲   control frames: IOM_HELLO, LAUNCH, OUTPUT, EXITED, STOP ...  │
 *                     └──────────────── PEER_HELLO, PEER_TABLE, PEER_FAILURE ◄──────────┘
 * </pre>
 *
 * PSE's debugging aids are launcher work too: {@link io.cohort.launch.DebuggerWindows} (a jdb per
 * peer in tmux windows, {@code --debug}) and {@link io.cohort.launch.CrashDirectories} (per-peer
 * crash files, {@code --core-dir}).
 *
 * May depend on the JDK and on {@code io.cohort.wireup} (the control protocol) in cohort-core, nothing
 * else; the command line ({@code io.cohort.cli}) depends on this package, never the other way.
 */
package io.cohort.launch;
