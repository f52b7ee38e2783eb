package io.cohort.daemon;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A sealed daemon frame in its three parts: header, body, MAC. The body may be shared with other
 * frames (a long STATUS answer sent to many clients), so no part is ever written to.
 */
public record SealedFrame(byte[] head, byte[] body, byte[] mac) {
    /** The frame in one array (a copy). */
    public byte[] whole() {
        byte[] frame = new byte[length()];
        System.arraycopy(head, 0, frame, 0, head.length);
        System.arraycopy(body, 0, frame, head.length, body.length);
        System.arraycopy(mac, 0, frame, head.length + body.length, mac.length);
        return frame;
    }

    public int length() {
        return head.length + body.length + mac.length;
    }

    void writeTo(OutputStream out) throws IOException {
        out.write(head);
        out.write(body);
        out.write(mac);
    }
}
