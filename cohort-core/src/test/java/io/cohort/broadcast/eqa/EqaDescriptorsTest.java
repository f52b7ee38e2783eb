package io.cohort.broadcast.eqa;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.*;

/** Pins the wire layouts drawn in the descriptors' javadoc, and the settings' checks. */
@Timeout(10)
class EqaDescriptorsTest {
    @Test
    void headerAndDataOffsetsAreAsDrawn() {
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        EqaHeaderDescriptor.write(b, EqaHeaderDescriptor.TYPE_DATA, 0x0102, 0x1122334455667788L, 7, 300);
        DataFrameDescriptor.write(b, 9, 10, 11, 12, 13, -1);
        assertEquals(0x45, b.get(0), "'E' first: the magic reads EQA1 on the wire");
        assertEquals('1', b.get(3));
        assertEquals(1, b.get(4));
        assertEquals(1, b.get(5));
        assertEquals(0x0102, b.getShort(6));
        assertEquals(0x1122334455667788L, b.getLong(8));
        assertEquals(7, b.getInt(16));
        assertEquals(300, b.getShort(20));
        assertEquals(24, EqaHeaderDescriptor.HEADER_LENGTH);
        assertEquals(9, b.getLong(24));
        assertEquals(10, b.getLong(32));
        assertEquals(11, b.getInt(40));
        assertEquals(12, b.getInt(44));
        assertEquals(13, b.getInt(48));
        assertEquals(-1, b.getInt(52));
        assertEquals(56, DataFrameDescriptor.PAYLOAD_OFFSET);
    }

    @Test
    void ackAndPullOffsetsAreAsDrawn() {
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        AckFrameDescriptor.write(b, 42);
        assertEquals(42, b.getLong(24));
        assertEquals(32, AckFrameDescriptor.LENGTH);
        PullFrameDescriptor.write(b, 5, 77);
        assertEquals(5, b.getLong(24));
        assertEquals(77, b.getLong(32));
        assertEquals(40, PullFrameDescriptor.LENGTH);
    }

    @Test
    void thePapersConstantsAreTheDefaults() {
        EqaContext c = new EqaContext();
        assertEquals(16, c.window());
        assertEquals(80, c.btp1());
        assertEquals(780, c.btp2());
        assertEquals(BroadcastMode.SIMPLE, BroadcastMode.AUTO.resolve(860, c.btp()));
        assertEquals(BroadcastMode.PUSH_PULL, BroadcastMode.AUTO.resolve(861, c.btp()));
    }

    @Test
    void badSettingsNameTheSettingAndTheValue() {
        Properties p = new Properties();
        p.setProperty(EqaContext.WINDOW_PROP_NAME, "0");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EqaContext.from(p));
        assertTrue(e.getMessage().contains("cohort.eqa.window = 0"), e.getMessage());
        Properties q = new Properties();
        q.setProperty(EqaContext.BTP1_PROP_NAME, "eighty");
        e = assertThrows(IllegalArgumentException.class, () -> EqaContext.from(q));
        assertTrue(e.getMessage().contains("\"eighty\""), e.getMessage());
        Properties r = new Properties();
        r.setProperty(EqaContext.MODE_PROP_NAME, "push-pull");
        assertEquals(BroadcastMode.PUSH_PULL, EqaContext.from(r).mode());
        r.setProperty(EqaContext.MODE_PROP_NAME, "fast");
        e = assertThrows(IllegalArgumentException.class, () -> EqaContext.from(r));
        assertTrue(e.getMessage().contains("\"fast\""), e.getMessage());
    }
}
