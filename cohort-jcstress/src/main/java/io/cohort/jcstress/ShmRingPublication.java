package io.cohort.jcstress;

import io.cohort.transport.shm.ShmRecordDescriptor;
import io.cohort.transport.shm.ShmRing;
import io.cohort.transport.shm.ShmSegmentDescriptor;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A record that {@link ShmRing#poll} finds is the whole record the producer wrote, and nothing
 * stale follows it. The real ring on a direct buffer, as a mapped file is: the producer side
 * {@link ShmRing#offer}s one record (header, payload, the next record's length word zeroed, then
 * this record's length stored with release) while the consumer side polls once; if it finds the
 * record it reads its header and payload, consumes it and polls again.
 *
 * <p>Every state starts a lap late: a full lap of records with another tag and payload was
 * written and consumed first, so the slot the new record goes to still holds an old header and
 * payload (its length word already 0), and the slot after it still holds an old record's
 * non-zero length. A consumer that saw the new length with the old bytes behind it would report
 * the old tag or payload; one that found the old length at the next slot would report a phantom
 * record.
 *
 * <p>Ordering checked: the producer's stores of header, payload and the next zero happen before
 * its release store of the length, and the consumer's acquire load of the length happens before
 * its reads of the record. Wrong orderings it catches:
 * <ul>
 *   <li>zeroing the next length word after the release of this one: the consumer finds the
 *       previous lap's record behind the new one ({@code 232, 42, 1001, 1058, 7}). This shows on
 *       x86 too, since it is the program's order, not the hardware's; the window is a few
 *       instructions wide, so it takes many samples (seen once in about 27,000 on a loaded
 *       2-core machine). Not zeroing it at all shows every time the record is seen.</li>
 *   <li>the length published by a plain store instead of the release, or read by a plain load
 *       instead of the acquire: a stale header or payload ({@code 232, 7, ...}, or old payload
 *       words). x86 keeps a store after earlier stores and a load after earlier loads itself, and
 *       C2 did not move these accesses in a trial (both weakened at once, C2 with its
 *       scheduling randomizers on: no forbidden outcome in about 940,000 samples), so on x86 this
 *       test cannot tell; AArch64 or POWER hardware would.</li>
 * </ul>
 */
@JCStressTest
@Description("ShmRing: a polled record carries its own header and payload, and no stale record follows it")
@Outcome(id = "-1, 0, 0, 0, 0", expect = ACCEPTABLE, desc = "not published yet: poll found nothing")
@Outcome(id = "232, 42, 1001, 1058, -1", expect = ACCEPTABLE,
        desc = "the whole record, and nothing published after it")
@Outcome(expect = FORBIDDEN,
        desc = "a stale header or payload, a torn length, a malformed ring, or a phantom record after it")
public class ShmRingPublication {
    static final int CAPACITY = 1024;
    static final long JOB_KEY = 0x4A43535452455353L;
    /** 24 + 232 bytes make a 256-byte record: four to a lap of the smallest ring. */
    static final int PAYLOAD = 232;
    static final int TAG = 42;
    static final int OLD_TAG = 7;
    /** The new record's payload: ints 1001..1058. */
    static final ByteBuffer NEW_PAYLOAD = payload(1001);
    /** The previous lap's payloads: ints 7001..7058. */
    static final ByteBuffer OLD_PAYLOAD = payload(7001);

    private static ByteBuffer payload(int first) {
        ByteBuffer b = ByteBuffer.allocateDirect(PAYLOAD).order(ByteOrder.nativeOrder());
        for (int i = 0; i < PAYLOAD / Integer.BYTES; i++) {
            b.putInt(i * Integer.BYTES, first + i);
        }
        return b.asReadOnlyBuffer().order(ByteOrder.nativeOrder());
    }

    @State
    public static class Ring {
        final ShmRing producer;
        final ShmRing consumer;

        public Ring() {
            ByteBuffer segment = ByteBuffer.allocateDirect((int) ShmSegmentDescriptor.segmentBytes(CAPACITY));
            ShmRing.format(segment, JOB_KEY, 0, 1, CAPACITY);
            producer = ShmRing.attach(segment, JOB_KEY, 0, 1);
            consumer = ShmRing.attach(segment, JOB_KEY, 0, 1);
            // One lap of old records written and consumed: the new record lands on slot 0 over an old
            // header and payload (its length word zeroed by the last old record), and slot 1 keeps
            // an old non-zero length.
            int perLap = CAPACITY / ShmRecordDescriptor.aligned(ShmRecordDescriptor.HEADER_LENGTH + PAYLOAD);
            for (int i = 0; i < perLap; i++) {
                if (!producer.offer(ShmRecordDescriptor.TYPE_MESSAGE, 3, OLD_TAG, PAYLOAD, OLD_PAYLOAD, 0, PAYLOAD)) {
                    throw new IllegalStateException("ring full while laying the old lap");
                }
                consumer.consume(consumer.poll());
            }
        }
    }

    @Actor
    public void producer(Ring s) {
        s.producer.offer(ShmRecordDescriptor.TYPE_MESSAGE, 3, TAG, PAYLOAD, NEW_PAYLOAD, 0, PAYLOAD);
    }

    /** r1: the record's payload length (or poll's -1 / MALFORMED); r2: its tag; r3, r4: first and last payload int; r5: the next poll. */
    @Actor
    public void consumer(Ring s, IIIII_Result r) {
        ShmRing c = s.consumer;
        int at = c.poll();
        if (at < 0) {
            r.r1 = at;
            return;
        }
        r.r1 = c.payloadLength(at);
        r.r2 = c.tag(at);
        ByteBuffer data = c.data();
        int p = c.payloadIndex(at);
        r.r3 = data.getInt(p);
        r.r4 = data.getInt(p + PAYLOAD - Integer.BYTES);
        c.consume(at);
        int next = c.poll();
        r.r5 = next < 0 ? next : c.tag(next);
    }
}
