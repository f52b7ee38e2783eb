package io.cohort.tools.prof;

import jdk.jfr.Event;
import jdk.jfr.Name;

/**
 * Test stand-ins for the capture side's events: the same names and fields as the contract in
 * {@link ProfileEvents}, so the reader cannot tell them from a real peer's.
 */
final class FixtureEvents {
    private FixtureEvents() {
    }

    @Name(ProfileEvents.SEND)
    static final class Send extends Event {
        int communicator;
        int peer;
        int tag;
        long bytes;
        long sequence;
        String operation;
    }

    @Name(ProfileEvents.RECEIVE)
    static final class Receive extends Event {
        int communicator;
        int peer;
        int tag;
        long bytes;
        long sequence;
        String operation;
    }

    @Name(ProfileEvents.PROBE)
    static final class Probe extends Event {
        int communicator;
        int peer;
        int tag;
        boolean found;
    }

    @Name(ProfileEvents.WAIT)
    static final class Wait extends Event {
        String operation;
        int requests;
    }

    @Name(ProfileEvents.COLLECTIVE)
    static final class Collective extends Event {
        int communicator;
        String operation;
        String algorithm;
        int root;
        long bytes;
        int size;
    }

    @Name(ProfileEvents.REGION)
    static final class Region extends Event {
        String name;
    }

    @Name(ProfileEvents.PEER_INFO)
    static final class PeerInfo extends Event {
        int rank;
        int size;
        String jobId;
        String host;
        String application;
        long pid;
    }

    @Name(ProfileEvents.JOB)
    static final class Job extends Event {
        int rank;
    }

    @Name(ProfileEvents.NACK)
    static final class Nack extends Event {
        String transport;
        int peer;
        int count;
    }

    @Name(ProfileEvents.RETRANSMISSION)
    static final class Retransmission extends Event {
        String transport;
        int peer;
        long sequence;
        long bytes;
    }

    @Name(ProfileEvents.FLOW_CONTROL_STALL)
    static final class FlowControlStall extends Event {
        String transport;
        int peer;
    }

    @Name(ProfileEvents.DROPPED_TRAFFIC)
    static final class DroppedTraffic extends Event {
        String transport;
        String reason;
        String unit;
        long count;
    }
}
