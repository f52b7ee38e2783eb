/*
 * The PCODE paper's protocol P1 (sections 2-4: P0 with a finite buffer of sent messages and the
 * STATUS mechanism), for 3 processors running one fixed correct global program over a lossy
 * broadcast medium. Checked by scripts/check-promela.sh (called by .ci/run):
 *
 *   - Correct delivery (Proposition 2, with Properties 1 and 2): every request returns exactly the
 *     message its source multicast at the same position of the program, to the same target set,
 *     once, in order: assertions in deliver.
 *   - Progress (Proposition 1), as an assertion: a processor that reaches the end of its program
 *     has issued every call and had every one of its requests return (delivered == requests).
 *   - Progress, as a liveness claim: <> all processors finished (ltl "progress"), under weak
 *     fairness and a bound on losses (the paper's Assumption 4, eventual receipt, made finite).
 *
 * What the model leaves out of PCODE (Cohort's io.cohort.broadcast.pcode has them): the global
 * counter and gcv flow control (5.1, 5.2), early loss detection by gaps (5.3), the early-message
 * buffer (5.4), periodic STATUS (5.5: here STATUS is only asked for by a sender whose buffer is
 * full, as in P1), point-to-point unicast streams (5.6), time-outs and their delays (5.7: a timer
 * fires only when nothing else can happen: Spin's timeout), fragmentation, duplication
 * and reordering by the network (channels are FIFO; loss is the only fault), foreign frames,
 * the goodbye at close, and more than 3 processors. The sent buffer holds one message (the
 * paper's Assumption 3 minimum), which forces the STATUS path on every second multicast.
 */

#define N        3
#ifndef K
#define K        4          /* calls in the global program (1..5; the script's thorough run uses 5) */
#endif
#define CAP      4          /* channel capacity; a full channel loses the message */
#ifndef MAXLOSS
#define MAXLOSS  2          /* losses the network may inflict in one run */
#endif

mtype = { DATA, NACK, STATUSREQ, STATUS };

/* type, sender, personal count, targets (bitmask) or NACK's q, content = position i, a, b, c */
chan in[N] = [CAP] of { mtype, byte, byte, byte, byte, byte, byte, byte };

/* The global program: at position i, progSender[i] multicasts to progTargets[i]; every target
 * requests (progSender[i], progTargets[i]); everybody else skips. Index 0 unused. */
byte progSender[6];         /* the program has 5 calls; K of them run */
byte progTargets[6];
byte losses;
bool finished[N];
bool tick[N];               /* a processor's timer fired */
byte requests[N];           /* requests each processor makes in the program */

#define BIT(p) (1 << (p))

/* A UDP send never blocks: a full receive buffer loses the datagram. Atomic, so a channel cannot
 * fill between the check and the send (two processors would then block sending to each other). */
inline broadcast(p, t, a1, a2, a3, a4, a5, a6, a7) {
    atomic {
    j = 0;
    do
    :: j == N -> break
    :: j == p -> j++
    :: j != p && j < N ->
        if
        :: losses < MAXLOSS -> losses++          /* lost on the way to j */
        :: nfull(in[j]) -> in[j]!t, a1, a2, a3, a4, a5, a6, a7
        :: full(in[j]) -> skip                   /* the receiver's buffer overflowed: lost too */
        fi;
        j++
    od
    }
}

proctype Processor(byte me) {
    byte i = 1;                   /* position in the program */
    byte pcv[N];                  /* highest consecutive personal count handled, per sender */
    byte slot[N];                 /* input slot per sender: the content (a position), 0 = free */
    byte slotT[N];                /* the slot's target set */
    byte handled[N];              /* from STATUS: what each peer handled of ours */
    bool sentValid;               /* the sent buffer (one message) */
    byte sentPc, sentT, sentContent;
    byte delivered;
    mtype t; byte s, pc, tg, c, a, b, d;
    byte j, q;

end:
    do
    /* multicast: communicate (figure 4), when the sent buffer has room */
    :: i <= K && progSender[i] == me && !sentValid ->
        atomic {
            pcv[me]++;
            sentValid = true; sentPc = pcv[me]; sentT = progTargets[i]; sentContent = i;
            broadcast(me, DATA, me, sentPc, sentT, i, 0, 0, 0);
#ifdef MUTANT_DISCARD_AT_ONCE
            sentValid = false;    /* a broken P1 that keeps nothing: the checker must find lost messages */
#endif
            i++
        }
    /* a call that does not involve this processor */
    :: i <= K && progSender[i] != me && (progTargets[i] & BIT(me)) == 0 -> i++
    /* request: deliver the ready message of the source */
    :: i <= K && progSender[i] != me && (progTargets[i] & BIT(me)) != 0 && slot[progSender[i]] != 0 ->
        atomic {
            q = progSender[i];
            assert(slot[q] == i);                 /* exactly the message multicast at this position */
            assert(slotT[q] == progTargets[i]);   /* to the same target set */
            slot[q] = 0; slotT[q] = 0; q = 0;
            delivered++;
            i++
        }
    /* receive and handle (figure 3, with STATUS) */
    :: in[me]?t, s, pc, tg, c, a, b, d ->
        atomic {
            if
            :: t == DATA ->
                if
                :: pc == pcv[s] + 1 && (tg & BIT(me)) == 0 -> pcv[s] = pc     /* not a target: count it */
                :: pc == pcv[s] + 1 && (tg & BIT(me)) != 0 && slot[s] == 0 ->
                    pcv[s] = pc; slot[s] = c; slotT[s] = tg
                :: else -> skip                  /* a duplicate, too early, or the slot is full */
                fi
            :: t == NACK ->
                if
                :: tg == me && sentValid && sentPc > a ->
                    broadcast(me, DATA, me, sentPc, sentT, sentContent, 0, 0, 0)    /* resend */
                :: else -> skip
                fi
            :: t == STATUSREQ -> broadcast(me, STATUS, me, 0, 0, 0, pcv[0], pcv[1], pcv[2])
            :: t == STATUS ->
                if
                :: me == 0 && a > handled[s] -> handled[s] = a
                :: me == 1 && b > handled[s] -> handled[s] = b
                :: me == 2 && d > handled[s] -> handled[s] = d
                :: else -> skip
                fi;
                /* P1: discard once every other processor handled the message */
                if
                :: sentValid && handled[(me + 1) % N] >= sentPc && handled[(me + 2) % N] >= sentPc ->
                    sentValid = false
                :: else -> skip
                fi
            fi;
            /* forget the message: scratch variables would otherwise multiply the states */
            t = 0; s = 0; pc = 0; tg = 0; c = 0; a = 0; b = 0; d = 0; j = 0
        }
    /* timers (see Timer) */
    :: tick[me] ->
        atomic {
            tick[me] = false;
            if
            :: i <= K && progSender[i] != me && (progTargets[i] & BIT(me)) != 0 && slot[progSender[i]] == 0 ->
                q = progSender[i];
                broadcast(me, NACK, me, 0, q, 0, pcv[q], 0, 0)                   /* REQUEST NACK */
            :: i <= K && progSender[i] == me && sentValid ->
                broadcast(me, STATUSREQ, me, 0, 0, 0, 0, 0, 0)                   /* buffer full: ask */
            :: else -> skip
            fi;
            q = 0; j = 0
        }
    /* the end of the program: every call was issued, every request returned its one message */
    :: i > K && !finished[me] ->
        assert(delivered == requests[me]);
        finished[me] = true
    od
}

/* Timers fire when nothing else can happen anywhere (Spin's timeout), all processors' at once, so
 * weak fairness gives every processor its turn: one processor's timer cannot starve another's. */
proctype Timer() {
end:
    do
    :: timeout -> atomic { tick[0] = true; tick[1] = true; tick[2] = true }
    od
}

init {
    /* A correct program that exercises non-targets, subsets and back-to-back multicasts. */
    progSender[1] = 0; progTargets[1] = BIT(1) | BIT(2);
    progSender[2] = 0; progTargets[2] = BIT(1);          /* processor 2 skips: it must still count it */
    progSender[3] = 1; progTargets[3] = BIT(0) | BIT(2);
    progSender[4] = 2; progTargets[4] = BIT(0);
    progSender[5] = 0; progTargets[5] = BIT(1) | BIT(2); /* needs STATUS to free the buffer of 0 */
    byte x = 1;
    do
    :: x > K -> break
    :: x <= K ->
        requests[0] = requests[0] + ((progTargets[x] >> 0) & 1);
        requests[1] = requests[1] + ((progTargets[x] >> 1) & 1);
        requests[2] = requests[2] + ((progTargets[x] >> 2) & 1);
        x++
    od;
    atomic {
        run Processor(0);
        run Processor(1);
        run Processor(2);
        run Timer()
    }
}

ltl progress { <> (finished[0] && finished[1] && finished[2]) }
