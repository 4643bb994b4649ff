package org.nectl.service.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.nectl.config.DescriptionException;
import org.nectl.config.RobotDescriptions;
import org.nectl.config.urdf.UrdfWriter;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code nectl model}: inspect, validate and convert robot descriptions. Not real-time safe. */
@Command(
    name = "model",
    mixinStandardHelpOptions = true,
    description = "Inspect, validate and convert robot descriptions.",
    subcommands = {ModelCommand.Show.class, ModelCommand.Check.class, ModelCommand.Export.class})
final class ModelCommand
{
    /** {@code nectl model show FILE [--json]}. */
    @Command(name = "show", mixinStandardHelpOptions = true,
        description = {"Print the movable joints (in coordinate order) and the total mass.",
            "A closed-loop description adds each joint's role (active or passive), home and the cut joints; a Gough-Stewart one "
                + "prints its legs: active and passive joints, attachment points, home lengths and actuator limits."})
    static final class Show implements Callable<Integer>
    {
        @Parameters(paramLabel = "FILE", description = "Robot description (.yaml, .urdf).")
        private Path file;

        @Option(names = "--json", description = "Print {\"dof\":n,\"base\":\"fixed|floating\",\"joints\":[{\"name\",\"type\",\"parent\"}, ..]}.")
        private boolean json;

        @Override
        public Integer call() throws Exception
        {
            if (ParallelModelShow.handles(file))
            {
                return ParallelModelShow.show(file, json, System.out, System.err);
            }
            final RobotModel model = loadOrReport(file, "nectl model show");
            if (model == null)
            {
                return 2;
            }
            if (json)
            {
                System.out.println(toJson(model));
            }
            else
            {
                printTable(model, System.out);
            }
            return 0;
        }
    }

    /** {@code nectl model check FILE}: exit status 0 if the description is valid. */
    @Command(name = "check", mixinStandardHelpOptions = true,
        description = "Validate a description; print the first error with file:line, exit 2 if invalid.")
    static final class Check implements Callable<Integer>
    {
        @Parameters(paramLabel = "FILE", description = "Robot description (.yaml, .urdf).")
        private Path file;

        @Override
        public Integer call()
        {
            try
            {
                final RobotModel model = RobotDescriptions.load(file);
                System.out.println(file + ": ok (" + model.name() + ", " + model.dof() + " dof, "
                    + baseKind(model) + " base '" + model.baseName() + "')");
                return 0;
            }
            catch (final DescriptionException e)
            {
                System.err.println(e.getMessage());
                return 2;
            }
        }
    }

    /** {@code nectl model export FILE --urdf [-o OUT]}: any supported description written as URDF. */
    @Command(name = "export", mixinStandardHelpOptions = true,
        description = "Write a description as URDF, to standard output or to --output; re-importing it gives the "
            + "same torques. Torque-rate limits have no URDF form and are left out.")
    static final class Export implements Callable<Integer>
    {
        @Parameters(paramLabel = "FILE", description = "Robot description (.yaml, .urdf).")
        private Path file;

        // Required although URDF is the only export format, so that the command line says what it writes.
        @Option(names = "--urdf", required = true, description = "Write URDF.")
        private boolean urdf;

        @Option(names = {"-o", "--output"}, paramLabel = "OUT",
            description = "Write to this new file instead of stdout; an existing file is refused unless --force.")
        private Path output;

        @Option(names = "--force", description = "Replace an existing --output file (a regular file only, never through a symbolic link).")
        private boolean force;

        @Override
        public Integer call() throws IOException
        {
            final RobotModel model = loadOrReport(file, "nectl model export");
            if (model == null)
            {
                return 2;
            }
            if (output == null)
            {
                System.out.print(UrdfWriter.write(model));
            }
            else
            {
                try
                {
                    UrdfWriter.write(model, output, force);
                }
                catch (final IOException e)
                {
                    // A FileSystemException's message already starts with the path.
                    System.err.println("nectl model export: cannot write "
                        + (e instanceof FileSystemException ? e.getMessage() : output + ": " + e)
                        + (e instanceof FileAlreadyExistsException ? " (--force replaces it)" : ""));
                    return 2;
                }
            }
            return 0;
        }
    }

    /**
     * Loads a description for a command, printing a description error on standard error.
     *
     * @param file the description file.
     * @param command the command's name, prefixed to the error.
     * @return the model, or null if the description is invalid (the command then exits with status 2).
     */
    static RobotModel loadOrReport(final Path file, final String command)
    {
        try
        {
            return RobotDescriptions.load(file);
        }
        catch (final DescriptionException e)
        {
            System.err.println(command + ": " + e.getMessage());
            return null;
        }
    }

    /**
     * @param model the robot.
     * @return {@code {"dof":n,"base":"fixed"|"floating","joints":[{"name":..,"type":..,"parent":..}, ..]}}, parent being the name
     *     of the link the joint hangs from.
     */
    static String toJson(final RobotModel model)
    {
        final ObjectMapper mapper = new ObjectMapper();
        final ObjectNode root = mapper.createObjectNode();
        root.put("dof", model.dof());
        root.put("base", baseKind(model));
        final ArrayNode joints = root.putArray("joints");
        for (int k = 0; k < model.dof(); k++)
        {
            final int body = model.bodyOfCoordinate(k);
            final ObjectNode joint = joints.addObject();
            joint.put("name", model.jointName(body));
            joint.put("type", model.jointType(body).name().toLowerCase(Locale.ROOT));
            joint.put("parent", parentName(model, body));
        }
        return root.toString();
    }

    private static String baseKind(final RobotModel model)
    {
        return model.floatingBase() ? "floating" : "fixed";
    }

    private static String parentName(final RobotModel model, final int body)
    {
        final int parent = model.parent(body);
        return parent < 0 ? model.baseName() : model.bodyName(parent);
    }

    private static void printTable(final RobotModel model, final PrintStream out)
    {
        out.printf(Locale.ROOT, "%s: %d dof, %d bodies, total mass %.4f kg%n",
            model.name(), model.dof(), model.bodyCount(), model.totalMass());
        if (model.floatingBase())
        {
            out.printf(Locale.ROOT, "floating base: link '%s', 6 dof (pose and twist are state), mass %.4f kg;"
                + " with it the robot weighs %.4f kg%n", model.baseName(), model.baseInertia().mass(),
                model.totalMass() + model.baseInertia().mass());
        }
        else
        {
            out.printf(Locale.ROOT, "fixed base: root link '%s' (bolted to the world; the root's own mass is not part"
                + " of the model)%n", model.baseName());
        }
        out.printf(Locale.ROOT, "%-4s %-20s %-10s %-20s %-20s %12s %12s %10s %10s%n",
            "k", "joint", "type", "parent link", "child link", "q min", "q max", "qd max", "tau max");
        for (int k = 0; k < model.dof(); k++)
        {
            final int body = model.bodyOfCoordinate(k);
            final JointLimits limits = model.limits(k);
            out.printf(Locale.ROOT, "%-4d %-20s %-10s %-20s %-20s %12.5g %12.5g %10.4g %10.4g%n",
                k, model.jointName(body), model.jointType(body).name().toLowerCase(Locale.ROOT),
                parentName(model, body), model.bodyName(body),
                limits.positionMin(), limits.positionMax(), limits.velocityMax(), limits.effortMax());
        }
    }
}
