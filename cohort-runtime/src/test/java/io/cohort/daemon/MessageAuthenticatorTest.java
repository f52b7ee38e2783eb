package io.cohort.daemon;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class MessageAuthenticatorTest {
    private final ManualClock clock = new ManualClock(1_700_000_000_000L);

    private MessageAuthenticator auth(ClusterKey key, String name) {
        return new MessageAuthenticator(key, name, clock, 30_000, new ReplayGuard(30_000, 1000));
    }

    private final MessageAuthenticator sender = auth(TestClusters.KEY, "m1");
    private final MessageAuthenticator receiver = auth(TestClusters.KEY, "m2");

    private MessageAuthenticator.Opened open(byte[] f) {
        return receiver.open(f, 0, f.length);
    }

    @Test
    void aSealedMessageOpensWithItsFields() {
        byte[] f = sender.seal(MessageType.DRAIN, MessageBody.empty().put("member", "m3").put("reason", "disk\nfailing \\ now"), "m2");
        MessageAuthenticator.Opened o = open(f);
        assertTrue(o.ok(), String.valueOf(o));
        assertEquals(MessageType.DRAIN, o.message().type());
        assertEquals("m1", o.message().sender());
        assertEquals(clock.millis(), o.message().timestamp());
        assertEquals("disk\nfailing \\ now", o.message().body().get("reason"));
    }

    @Test
    void aBodyWrittenStraightToTextSealsInPartsAndOpensLikeAMapBody() {
        MessageBody written = new MessageBody.Writer(0).put("member", "m3").put("reason", "disk\nfailing \\ now")
                .put("member", "m4").toBody();
        MessageBody built = MessageBody.empty().put("member", "m3").put("reason", "disk\nfailing \\ now").put("member", "m4");
        // The same fields either way; the writer's text keeps both lines of a repeated key, and the last one wins.
        assertEquals(built.asMap(), MessageBody.decode(written.encode(), 0, written.encode().length).asMap());
        assertEquals("m4", written.get("member"));

        SealedFrame parts = sender.sealParts(MessageType.STATUS, written, "m2", DaemonFrame.MAX_ANSWER_LENGTH);
        assertTrue(parts.body() == written.encode(), "the body is sent from the body's own array, not a copy");
        byte[] f = parts.whole();
        MessageAuthenticator.Opened o = receiver.open(f, 0, f.length, DaemonFrame.MAX_ANSWER_LENGTH);
        assertTrue(o.ok(), String.valueOf(o));
        assertEquals("disk\nfailing \\ now", o.message().body().get("reason"));
        assertEquals("m4", o.message().body().get("member"));

        // A field put after the text was written is sent too.
        written.put("extra", "1");
        assertEquals("1", MessageBody.decode(written.encode(), 0, written.encode().length).get("extra"));
    }

    @Test
    void aWritersKeysAreCheckedAsPutChecksThem() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new MessageBody.Writer(0).put("no spaces", "x"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> MessageBody.empty().put("", "x"));
    }

    @Test
    void anotherClustersKeyIsABadMac() {
        byte[] f = auth(TestClusters.OTHER_KEY, "m1").seal(MessageType.STATUS, MessageBody.empty(), "m2");
        assertEquals(Refusal.BAD_MAC, open(f).refusal());
    }

    @Test
    void anyChangedByteIsABadMacOrRefused() {
        byte[] f = sender.seal(MessageType.SLOTS, MessageBody.empty().put("member", "m1").put("slots", 4), "m2");
        for (int i = DaemonFrame.TIMESTAMP_OFFSET; i < f.length; i++) {
            byte[] g = f.clone();
            g[i] ^= 0x01;
            MessageAuthenticator.Opened o = open(g);
            assertNull(o.message(), "byte " + i);
        }
    }

    @Test
    void aMessageOlderOrNewerThanMaxSkewIsStale() {
        byte[] f = sender.seal(MessageType.STATUS, MessageBody.empty(), "m2");
        clock.advance(30_001);
        assertEquals(Refusal.STALE, open(f).refusal());
        byte[] future = sender.seal(MessageType.STATUS, MessageBody.empty(), "m2", clock.millis() + 30_001, 42);
        assertEquals(Refusal.STALE, open(future).refusal());
    }

    @Test
    void aReplayedMessageIsRefused() {
        byte[] f = sender.seal(MessageType.STATUS, MessageBody.empty(), "m2");
        assertTrue(open(f).ok());
        assertEquals(Refusal.REPLAYED, open(f).refusal());
    }

    @Test
    void garbageAndTruncatedFramesAreMalformedNotExceptions() {
        byte[] f = sender.seal(MessageType.STATUS, MessageBody.empty().put("a", "b"), "m2");
        assertEquals(Refusal.MALFORMED, receiver.open(f, 0, f.length - 1).refusal());
        assertEquals(Refusal.MALFORMED, receiver.open(f, 0, 10).refusal());
        assertEquals(Refusal.MALFORMED, open(new byte[0]).refusal());
        byte[] junk = new byte[200];
        Arrays.fill(junk, (byte) 0x55);
        assertEquals(Refusal.FOREIGN, open(junk).refusal());
        byte[] unknownType = f.clone(); // a later version's frame, or a stranger's: its type is unknown, whatever its MAC
        unknownType[DaemonFrame.TYPE_OFFSET] = (byte) 200;
        assertEquals(Refusal.FOREIGN, open(unknownType).refusal());
        byte[] lying = f.clone(); // a sender length pointing past the MAC
        lying[DaemonFrame.SENDER_LENGTH_OFFSET] = (byte) 0xFF;
        assertEquals(Refusal.MALFORMED, open(lying).refusal());
    }

    @Test
    void anAuthenticBodyThatIsNotKeyValueLinesIsMalformed() {
        // Seal a frame, then rewrite its body with a valid MAC: only a key holder could; still no exception.
        byte[] good = sender.seal(MessageType.STATUS, MessageBody.empty().put("k", "v"), "m2");
        byte[] f = good.clone();
        DaemonFrame fr = new DaemonFrame().wrap(ByteBuffer.wrap(f), 0);
        f[fr.bodyOffset() + 1] = 'x'; // "kx" then "v\n": no '='
        byte[] resealed = reseal(f);
        assertEquals(Refusal.MALFORMED, open(resealed).refusal());
    }

    private static byte[] reseal(byte[] f) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(TestClusters.KEY.bytes(), "HmacSHA256"));
            mac.update(f, 0, f.length - 32);
            mac.update("m2".getBytes(java.nio.charset.StandardCharsets.UTF_8)); // the recipient, part of the MAC
            mac.doFinal(f, f.length - 32);
            return f;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void forgedFramesDoNotFillTheReplayGuard() {
        ReplayGuard guard = new ReplayGuard(30_000, 1000);
        MessageAuthenticator r = new MessageAuthenticator(TestClusters.KEY, "m2", clock, 30_000, guard);
        MessageAuthenticator forger = auth(TestClusters.OTHER_KEY, "m1");
        for (int i = 0; i < 50; i++) {
            byte[] f = forger.seal(MessageType.STATUS, MessageBody.empty(), "m2");
            r.open(f, 0, f.length);
        }
        assertEquals(0, guard.size());
    }

    @Test
    void aMessageSealedForAnotherDaemonIsABadMacThere() {
        byte[] f = sender.seal(MessageType.DRAIN, MessageBody.empty().put("member", "m3").put("reason", "x"), "m3");
        assertEquals(Refusal.BAD_MAC, open(f).refusal(), "sealed for m3, replayed to m2");
        MessageAuthenticator m3 = auth(TestClusters.KEY, "m3");
        assertTrue(m3.open(f, 0, f.length).ok());
    }

    @Test
    void theLayoutIsPinned() {
        assertEquals(0, DaemonFrame.LENGTH_OFFSET);
        assertEquals(4, DaemonFrame.MAGIC_OFFSET);
        assertEquals(6, DaemonFrame.VERSION_OFFSET);
        assertEquals(7, DaemonFrame.TYPE_OFFSET);
        assertEquals(8, DaemonFrame.TIMESTAMP_OFFSET);
        assertEquals(16, DaemonFrame.NONCE_OFFSET);
        assertEquals(24, DaemonFrame.SENDER_LENGTH_OFFSET);
        assertEquals(25, DaemonFrame.SENDER_OFFSET);
        assertEquals(58, DaemonFrame.MIN_LENGTH);
        byte[] f = sender.seal(MessageType.UPDATE, MessageBody.empty().put("a", "1"), "m2");
        assertEquals(25 + 2 + 4 + 32, f.length);
        assertEquals(f.length, ByteBuffer.wrap(f).getInt(0));
        assertEquals(0x4344, ByteBuffer.wrap(f).getShort(4));
        assertEquals(1, f[7]);
        assertEquals('m', f[25]);
    }
}
