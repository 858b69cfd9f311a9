// The TypeScript MCP SDK's own client against the router's MCP server.
// node sdk_client.mjs stdio '["python", "server.py"]' '[{"query": ...}, ...]'
// node sdk_client.mjs http http://127.0.0.1:PORT/mcp '[...]'
// Prints one JSON object: the server's info and capabilities, the listed tools and, for each
// argument object, the call's result (validated by the SDK against the tool's output schema)
// or the error the SDK raised.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, target, callsJson] = process.argv.slice(2);
const calls = JSON.parse(callsJson ?? "[]");
let transport;
if (mode === "stdio") {
  const [command, ...args] = JSON.parse(target);
  transport = new StdioClientTransport({ command, args, stderr: "ignore" });
} else if (mode === "http") {
  transport = new StreamableHTTPClientTransport(new URL(target));
} else {
  throw new Error(`unknown transport ${mode}`);
}
const client = new Client({ name: "schemarouter-host-test", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
const out = {
  server: client.getServerVersion(),
  capabilities: client.getServerCapabilities(),
  tools,
  calls: [],
};
for (const args of calls) {
  try {
    const result = await client.callTool({ name: tools[0].name, arguments: args });
    out.calls.push({ ok: true, result });
  } catch (error) {
    out.calls.push({ ok: false, error: String(error), code: error?.code ?? null });
  }
}
await client.close();
process.stdout.write(JSON.stringify(out));
