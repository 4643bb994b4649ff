// Reads an MCAP file with the MCAP project's own TypeScript reader (@mcap/core) and prints, as
// JSON: the topic, schema name and encodings of each channel, the messages per topic, every
// tickCount of /nectl/telemetry in order, and the last message of each topic.
import { McapStreamReader } from "@mcap/core";
import { readFileSync } from "node:fs";

const reader = new McapStreamReader({ validateCrcs: true });
reader.append(readFileSync(process.argv[2]));
const schemas = new Map();
const channels = new Map();
const counts = {};
const last = {};
const ticks = [];
let header;
let record;
while ((record = reader.nextRecord()) !== undefined) {
  if (record.type === "Header") {
    header = record;
  } else if (record.type === "Schema") {
    schemas.set(record.id, { name: record.name, encoding: record.encoding });
    JSON.parse(new TextDecoder().decode(record.data));
  } else if (record.type === "Channel") {
    channels.set(record.id, { topic: record.topic, messageEncoding: record.messageEncoding, schema: schemas.get(record.schemaId) });
  } else if (record.type === "Message") {
    const topic = channels.get(record.channelId).topic;
    const message = JSON.parse(new TextDecoder().decode(record.data));
    counts[topic] = (counts[topic] ?? 0) + 1;
    last[topic] = message;
    if (topic === "/nectl/telemetry") {
      ticks.push(message.tickCount);
    }
  }
}
if (!reader.done()) {
  throw new Error("the MCAP file ends before its footer and closing magic");
}
console.log(JSON.stringify({ library: header.library, channels: [...channels.values()], counts, ticks, last }));
