package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.nectl.config.RobotDescriptions;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

class ModelCommandTest
{
    @Test
    void jsonListsMovableJointsInCoordinateOrderWithParentLinks() throws Exception
    {
        final RobotModel model = RandomRobots.robot(11, 9, true, RandomRobots.Joints.ALL, false);
        final JsonNode json = new ObjectMapper().readTree(ModelCommand.toJson(model));
        assertEquals(model.dof(), json.get("dof").intValue());
        assertEquals(model.dof(), json.get("joints").size());
        for (int k = 0; k < model.dof(); k++)
        {
            final int body = model.bodyOfCoordinate(k);
            final JsonNode joint = json.get("joints").get(k);
            assertEquals(model.jointName(body), joint.get("name").textValue());
            assertEquals(model.jointType(body).name().toLowerCase(java.util.Locale.ROOT), joint.get("type").textValue());
            final int parent = model.parent(body);
            assertEquals(parent < 0 ? model.baseName() : model.bodyName(parent), joint.get("parent").textValue());
        }
        assertEquals("fixed", json.get("base").textValue());
    }

    @Test
    void jsonSaysWhenTheBaseFloats() throws Exception
    {
        final RobotModel model = RobotDescriptions.load(Path.of("..", "config", "robots", "quadruped-12.urdf"));
        assertEquals("floating", new ObjectMapper().readTree(ModelCommand.toJson(model)).get("base").textValue());
    }
}
