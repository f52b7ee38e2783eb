package io.cohort.transport;

import java.nio.ByteBuffer;

/** Inbound targets for transport tests: a buffer, and what to check or record once it is full. */
public final class TestTargets {
    private TestTargets() {
    }

    public static InboundTarget of(ByteBuffer buffer, Runnable onComplete) {
        return new InboundTarget() {
            @Override
            public ByteBuffer buffer() {
                return buffer;
            }

            @Override
            public void complete() {
                onComplete.run();
            }
        };
    }
}
