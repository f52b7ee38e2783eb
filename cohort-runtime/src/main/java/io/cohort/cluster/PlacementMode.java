package io.cohort.cluster;

/** PSE's modes of mapping peers onto members. */
public enum PlacementMode {
    /** One peer per member; a job asking for more peers than there are available members is refused. */
    PHYSICAL,
    /** Several peers per member where needed: a virtual cluster larger than the real one. */
    VIRTUAL
}
