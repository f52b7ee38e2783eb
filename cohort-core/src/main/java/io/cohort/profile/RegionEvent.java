package io.cohort.profile;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** An interval the program named with {@code io.cohort.Profile.region(name)} (PSE's interval profiling). */
@Name(RegionEvent.NAME)
@Label("Region")
@Category({"Cohort", "Regions"})
@Enabled(false) // on only where a recording asks (cohort.jfc): an unrelated recording pays nothing
@Description("An interval of the program named with Profile.region")
public final class RegionEvent extends Event {
    public static final String NAME = "io.cohort.Region";
    private static final RegionEvent PROBE = new RegionEvent();

    @Label("Name")
    public String name;

    /** A begun event if a recording wants regions, else null: nothing is allocated while none does. */
    public static RegionEvent startIfEnabled() {
        if (!PROBE.isEnabled()) {
            return null;
        }
        RegionEvent e = new RegionEvent();
        e.begin();
        return e;
    }

    public void finish(String name) {
        end();
        if (shouldCommit()) {
            this.name = name;
            commit();
        }
    }
}
