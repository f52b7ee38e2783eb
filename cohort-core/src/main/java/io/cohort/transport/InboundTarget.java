package io.cohort.transport;

import java.nio.ByteBuffer;

/** Memory the engine chose for one incoming message: a posted receive's buffer or a fresh array. */
public interface InboundTarget {
    /** The buffer to fill; the same instance on every call. */
    ByteBuffer buffer();

    /** All bytes are in. */
    void complete();
}
