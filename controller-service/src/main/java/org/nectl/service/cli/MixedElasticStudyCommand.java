package org.nectl.service.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.nectl.config.DescriptionException;
import org.nectl.config.ElasticDescriptions;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.MotorReference;
import org.nectl.core.simulation.MixedTrackingRun;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nectl study mixed-elastic-3dof [--payload] [--json] [--motor-reference FORM]}: the mixed rigid/elastic tracking study
 * ({@link MixedElasticStudy}). Not real-time safe.
 */
@Command(
    name = "mixed-elastic-3dof",
    mixinStandardHelpOptions = true,
    description = {
        "Simulates the 3-joint arm with joints 1-2 rigid and joint 3 elastic (K = 100 N m/rad) tracking",
        "q_d = 0.5 sin(0.5 pi t) on every joint for 10 s from q(0) = [0, 0, -0.4363] rad under the mixed",
        "inverse-dynamics controller, and prints per joint the RMS and largest tracking error (rad) and the",
        "largest commanded torque rate (N m/s). Exit status: 2 bad description or option, 1 the run failed."
    })
final class MixedElasticStudyCommand implements Callable<Integer>
{
    @Option(names = "--model", paramLabel = "FILE", defaultValue = "config/robots/mixed-elastic-3dof.yaml",
        description = "Robot description with drives (.yaml); default ${DEFAULT-VALUE}.")
    private Path modelFile;

    @Option(names = "--end-effector", paramLabel = "X,Y,Z", split = ",", defaultValue = "0.3,0,0",
        description = "End effector in the last link's frame, m; default ${DEFAULT-VALUE}.")
    private double[] endEffector;

    @Option(names = "--payload", description = "Apply a 3 N downward force at the end effector (unknown to the controller).")
    private boolean payload;

    @Option(names = "--motor-reference", paramLabel = "FORM", defaultValue = "along-reference",
        description = "Motor reference theta_d of eq. 43: along-reference (default) or control-law (as printed:"
            + " measured q and the load law's torque); see docs/CONTROL.md.")
    private String motorReference;

    @Option(names = "--json", description = "Print {\"rms_rad\":[..],\"max_abs_rad\":[..],\"max_torque_rate\":[..]}.")
    private boolean json;

    @Override
    public Integer call()
    {
        final ElasticRobotModel model;
        try
        {
            model = ElasticDescriptions.load(modelFile);
        }
        catch (final DescriptionException e)
        {
            System.err.println("nectl study: " + e.getMessage());
            return 2;
        }
        final MixedTrackingRun.Result result;
        try
        {
            result = MixedElasticStudy.run(model, model, endEffector, payload, MixedElasticStudy.PERIOD_NS,
                MixedElasticStudy.GAINS, MixedElasticStudy.DURATION_S, form(motorReference));
        }
        catch (final IllegalArgumentException e)
        {
            System.err.println("nectl study: " + e.getMessage());
            return 2;
        }
        System.out.println(json ? toJson(result) : toText(result));
        return result.failure() == 0 ? 0 : 1;
    }

    private static MotorReference.Form form(final String name)
    {
        return switch (name)
        {
            case "along-reference" -> MotorReference.Form.ALONG_REFERENCE;
            case "control-law" -> MotorReference.Form.CONTROL_LAW;
            default -> throw new IllegalArgumentException("--motor-reference must be along-reference or control-law, got '"
                + name + "'");
        };
    }

    static String toJson(final MixedTrackingRun.Result result)
    {
        return "{\"rms_rad\":" + array(result.rmsRad()) + ",\"max_abs_rad\":" + array(result.maxAbsRad())
            + ",\"max_torque_rate\":" + array(result.maxTorqueRateNmPerS()) + "}";
    }

    private static String toText(final MixedTrackingRun.Result result)
    {
        final StringBuilder b = new StringBuilder("joint  rms_rad      max_abs_rad  max_torque_rate_Nm_per_s\n");
        for (int k = 0; k < result.rmsRad().length; k++)
        {
            b.append(String.format(Locale.ROOT, "%-6d %-12.7f %-12.7f %.3f%n", k + 1, result.rmsRad()[k],
                result.maxAbsRad()[k], result.maxTorqueRateNmPerS()[k]));
        }
        b.append(String.format(Locale.ROOT, "ticks %d, torque clips %s, rate clips %s, V2 %.4g -> %.4g J",
            result.ticks(), Arrays.toString(result.torqueClips()), Arrays.toString(result.rateClips()),
            result.lyapunovStartJoules(), result.lyapunovEndJoules()));
        return b.toString();
    }

    private static String array(final double[] values)
    {
        final StringBuilder b = new StringBuilder("[");
        for (int k = 0; k < values.length; k++)
        {
            b.append(k == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.7g", values[k]));
        }
        return b.append(']').toString();
    }
}
