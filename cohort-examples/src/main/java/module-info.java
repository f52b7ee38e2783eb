/**
 * The bundled example programs. Nothing imports them: cohort run --example names a class, which the
 * peer's io.cohort.wireup.PeerMain looks up and starts by reflection, as it starts any program.
 */
module io.cohort.examples {
    requires io.cohort.core;

    exports io.cohort.examples to io.cohort.core;
}
