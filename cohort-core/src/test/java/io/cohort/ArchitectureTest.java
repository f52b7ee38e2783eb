package io.cohort;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * cohort-core's package structure, checked on its compiled classes (tests left out): no package
 * depends on itself through others, and the layers of {@code docs/architecture.md} ("Packages and
 * their layers") hold. A new package must join a layer, here and in that section. And the module
 * descriptor exports to everyone exactly the API layer, whose classes use no package it does not
 * export (docs/architecture.md, "Modules").
 */
@AnalyzeClasses(packages = "io.cohort", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    /** Every package of io.cohort is a slice of its own: a cycle between any two fails, however long. */
    @ArchTest
    static final ArchRule noPackageCycles = slices().assignedFrom(new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            return c.getPackageName().startsWith("io.cohort") ? SliceIdentifier.of(c.getPackageName())
                    : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "every package of io.cohort";
        }
    }).should().beFreeOfCycles();

    static final String API = "API";
    static final String SUPPORT = "Support";
    static final String TRANSPORTS = "Transports";
    static final String BROADCAST = "Broadcast domains";
    static final String ENGINE = "Engine";
    static final String COLLECTIVES = "Collectives";
    static final String COMMUNICATORS = "Communicators";
    static final String SERVICES = "Services";
    static final String RUNTIME = "Runtime";

    static final String[] API_PACKAGES = {"io.cohort", "io.cohort.deck"};

    /**
     * The layers, lowest first. The API is the bottom: it imports nothing of the implementation,
     * which reaches it through {@link CohortProvider}. Each layer may use only those below it.
     */
    @ArchTest
    static final ArchRule layers = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .ensureAllClassesAreContainedInArchitecture()
            .layer(API).definedBy(API_PACKAGES)
            .layer(SUPPORT).definedBy("io.cohort.auth", "io.cohort.concurrent", "io.cohort.idle", "io.cohort.stacks",
                    "io.cohort.profile")
            .layer(TRANSPORTS).definedBy("io.cohort.transport..")
            .layer(BROADCAST).definedBy("io.cohort.broadcast..")
            .layer(ENGINE).definedBy("io.cohort.engine")
            .layer(COLLECTIVES).definedBy("io.cohort.collective")
            .layer(COMMUNICATORS).definedBy("io.cohort.comm")
            .layer(SERVICES).definedBy("io.cohort.deck.service")
            .layer(RUNTIME).definedBy("io.cohort.wireup")

            .whereLayer(API).mayNotAccessAnyLayer()
            .whereLayer(SUPPORT).mayOnlyAccessLayers(API)
            .whereLayer(TRANSPORTS).mayOnlyAccessLayers(API, SUPPORT)
            .whereLayer(BROADCAST).mayOnlyAccessLayers(API, SUPPORT, TRANSPORTS)
            .whereLayer(ENGINE).mayOnlyAccessLayers(API, SUPPORT, TRANSPORTS)
            .whereLayer(COLLECTIVES).mayOnlyAccessLayers(API, SUPPORT, TRANSPORTS, ENGINE)
            .whereLayer(COMMUNICATORS).mayOnlyAccessLayers(API, SUPPORT, BROADCAST, ENGINE, COLLECTIVES)
            .whereLayer(SERVICES).mayOnlyAccessLayers(API, SUPPORT, ENGINE, COMMUNICATORS)
            .whereLayer(RUNTIME).mayNotBeAccessedByAnyLayer();

    /** The packages cohort-core's module descriptor exports to every module (its qualified exports left out). */
    static final Set<String> EXPORTED = unqualifiedExports();

    /** cohort-core exports the API packages to everyone, and nothing else (the rest only to named modules). */
    @ArchTest
    static void theModuleExportsExactlyTheApiToEveryone(JavaClasses ignored) {
        assertEquals(new TreeSet<>(Set.of(API_PACKAGES)), EXPORTED);
    }

    /**
     * What every module may use imports nothing that not every module may use: no exported class's
     * signature or code names a class of a package exported only to some modules, or to none.
     */
    @ArchTest
    static final ArchRule exportedPackagesUseNoUnexportedPackage = noClasses()
            .that().resideInAnyPackage(EXPORTED.toArray(new String[0]))
            .should().dependOnClassesThat(resideInAPackage("io.cohort..")
                    .and(DescribedPredicate.not(resideInAnyPackage(EXPORTED.toArray(new String[0])))))
            .as("cohort-core's exported packages " + EXPORTED + " use no package of cohort-core it does not export");

    /** Read from the compiled module-info.class beside the classes (the tests run on the class path). */
    private static Set<String> unqualifiedExports() {
        try {
            Path classes = Path.of(CohortProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
                Set<String> exported = new TreeSet<>();
                for (ModuleDescriptor.Exports e : ModuleDescriptor.read(in).exports()) {
                    if (!e.isQualified()) {
                        exported.add(e.source());
                    }
                }
                return exported;
            }
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException("cannot read cohort-core's module descriptor: " + e, e);
        }
    }
}
