package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulationMode;
import org.nectl.service.cli.NectlCommand;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.transport.sbe.ControllerKind;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * {@code nectl dashboard} in a real browser: Debian's headless Chromium driven by Selenium
 * through the system chromedriver, against the service in lockstep with the simulated Panda,
 * the simulator paced to the wall clock at 1 kHz so the dashboard sees the telemetry rate of a
 * real arm. The page loads, its charts fill, the value it shows for joint 1 equals the published
 * telemetry of the tick it shows, and an EStop appears as a FAULT event. Saves a screenshot to
 * {@code target/dashboard.png}. The dashboard's CPU time is measured by {@code DashboardCpuTest}.
 */
class DashboardBrowserTest
{
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Duration PAGE_TIMEOUT = Duration.ofSeconds(20);
    /** Seconds of the move the page is shown. */
    private static final double RUN_S = 3.0;
    private static final Pattern URL = Pattern.compile("(http://127\\.0\\.0\\.1:\\d+/)");

    @TempDir
    Path temp;

    @Test
    void pageChartsLiveTelemetryShowsItsValuesAndAnEStopAsAFaultEvent() throws Exception
    {
        assertTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER), "the dashboard test needs Debian's "
            + CHROMIUM + " and " + CHROMEDRIVER + ": apt-get install chromium chromium-driver (.ci/run installs them)");
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings()))
        {
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            final StringWriter out = new StringWriter();
            final StringWriter err = new StringWriter();
            final CompletableFuture<Integer> dashboard = CompletableFuture.supplyAsync(() -> NectlCommand.newCommandLine()
                .setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute("dashboard", "--aeron-dir", rig.service.aeronDirectory(), "--port", "0"));
            ServiceRig.await(() -> URL.matcher(out.toString()).find() || dashboard.isDone(), "the dashboard's address");
            final Matcher url = URL.matcher(out.toString());
            assertTrue(url.find(), out + "\n" + err);

            final WebDriver browser = chromium();
            try
            {
                browser.get(url.group(1));
                final WebDriverWait wait = new WebDriverWait(browser, PAGE_TIMEOUT);
                rig.stepTo(0, arm, adapter);
                assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
                rig.awaitApplied(1);
                rig.stepTo(200, arm, adapter);
                assertTrue(rig.planner.sendTrajectory(move()).accepted(), "trajectory acknowledged");
                rig.awaitApplied(2);
                assertEquals(ControllerMode.TRACKING, rig.service.loop().mode(), "rejected: " + rig.service.lastTrajectoryRejection());
                wait.until(page -> number(page, "return nectlDashboard.layout === null ? 0 : nectlDashboard.layout.jointCount") == 7);

                runAtOneKilohertz(rig, arm, adapter, arm.stepCount(), RUN_S);
                assertEquals(ControllerMode.TRACKING, rig.service.loop().mode(), "still tracking the move");

                final long frames = number(browser, "return nectlDashboard.frames");
                final long points = number(browser, "return nectlDashboard.charts.position.data[0].length");
                assertTrue(frames >= 10, frames + " sample frames");
                assertTrue(points >= 10, points + " points in the position chart");
                assertEquals(11, number(browser, "return Object.keys(nectlDashboard.charts).length"), "charts drawn");
                System.out.printf(Locale.ROOT, "dashboard: %d sample frames, %d points per line%n", frames, points);

                // The simulator is held now: the page settles on the newest sample, whose tick it shows beside the values.
                final TelemetryRecorder.Sample newest = rig.telemetry.samples.get(rig.telemetry.samples.size() - 1);
                wait.until(page -> text(page, "counter-tickCount").equals(Long.toString(newest.tickCount())));
                final TelemetryRecorder.Sample shown = newest;
                assertEquals(shown.values().q()[0], Double.parseDouble(text(browser, "q-1")), 0.0, "q of joint 1 at tick " + shown.tickCount());
                assertEquals(shown.tauCommand()[6], Double.parseDouble(text(browser, "tau-7")), 0.0, "tau of joint 7");
                assertEquals(shown.values().q()[2] + shown.values().trackingError()[2], Double.parseDouble(text(browser, "qRef-3")), 0.0,
                    "reference of joint 3");
                assertEquals("TRACKING", text(browser, "state"));
                assertEquals("COMPUTED_TORQUE", text(browser, "controller"));

                assertTrue(rig.planner.eStop().accepted(), "EStop acknowledged");
                rig.awaitApplied(3);
                runAtOneKilohertz(rig, arm, adapter, arm.stepCount(), 0.5);
                wait.until(page -> page.findElements(By.cssSelector("#events li.FAULT")).stream()
                    .anyMatch(item -> item.getText().contains("emergency stop")));
                wait.until(page -> text(page, "faults").contains("emergency stop"));
                assertEquals("live", text(browser, "connection"), "one WebSocket connection throughout");
                final Path screenshot = Path.of("target", "dashboard.png");
                Files.createDirectories(screenshot.getParent());
                Files.copy(((ChromeDriver)browser).getScreenshotAs(OutputType.FILE).toPath(), screenshot,
                    StandardCopyOption.REPLACE_EXISTING);
                System.out.println("dashboard screenshot: " + screenshot.toAbsolutePath());
            }
            finally
            {
                browser.quit();
            }
            rig.service.close();
            assertEquals(4, dashboard.get(30, TimeUnit.SECONDS), "the dashboard ends when the service's driver is gone: " + err);
        }
    }

    /** Steps the lockstep simulator no faster than the wall clock, one step per millisecond, for {@code seconds}. */
    private static void runAtOneKilohertz(final ServiceRig rig, final SimulatedArm arm, final SimulatedArmAdapter adapter,
        final long fromStep, final double seconds)
    {
        final long startNs = System.nanoTime();
        final long steps = Math.round(seconds * 1000);
        long target = fromStep;
        while (target < fromStep + steps)
        {
            final long due = fromStep + (System.nanoTime() - startNs) / ServiceRig.PERIOD_NS;
            if (due > target)
            {
                target = Math.min(due, fromStep + steps);
                rig.stepTo(target, arm, adapter);
            }
            else
            {
                Thread.yield();
            }
        }
    }

    private WebDriver chromium()
    {
        final ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--window-size=1720,1100",
            "--user-data-dir=" + temp.resolve("chromium-profile"));
        final ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER.toString()))
            .usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    /** A 10 s move of every joint by 0.3 rad and back, from the ready pose: longer than the run. */
    private static JointTrajectory move()
    {
        final double[] times = {0.0, 5.0, 10.0};
        final double[][] q = {ServiceRig.READY.clone(), ServiceRig.READY.clone(), ServiceRig.READY.clone()};
        for (int j = 0; j < q[1].length; j++)
        {
            q[1][j] += (j % 2 == 0 ? 0.3 : -0.3);
        }
        return JointTrajectory.fromPositions(times, q);
    }

    private static long number(final WebDriver page, final String script)
    {
        return ((Number)((JavascriptExecutor)page).executeScript(script)).longValue();
    }

    private static String text(final WebDriver page, final String id)
    {
        return page.findElement(By.id(id)).getText();
    }
}
