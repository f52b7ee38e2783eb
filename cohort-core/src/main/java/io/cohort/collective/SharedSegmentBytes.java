package io.cohort.collective;

import io.cohort.BadSettingException;
import io.cohort.transport.shm.ShmCollectiveDescriptor;

/**
 * The size of the collective segment a communicator of peers sharing one host makes, for whoever
 * must know it before any peer runs: the io-manager, which checks that {@code /dev/shm} can hold
 * the job.
 */
public final class SharedSegmentBytes {
    /** The property that sets its slot and area size, as the peers read it. */
    public static final String AREA_BYTES_PROP_NAME = SharedMemoryCollectives.AREA_BYTES_PROP_NAME;

    private SharedSegmentBytes() {
    }

    /**
     * Bytes of the segment for {@code members} where the peers' {@value #AREA_BYTES_PROP_NAME} is
     * {@code configured} (null: unset; a bad value counts as unset, the peers report it themselves).
     */
    public static long of(int members, String configured) {
        int area;
        try {
            area = SharedMemoryCollectives.areaBytes(members, configured);
        } catch (BadSettingException e) {
            area = SharedMemoryCollectives.areaBytes(members, null);
        }
        return ShmCollectiveDescriptor.segmentBytes(members, area);
    }
}
