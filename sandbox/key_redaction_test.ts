import assert from "node:assert/strict";
import { redactStream, redactText } from "./key_redaction.ts";

const KEY = "sk-live-a1/b2+c3";
const P = "spot-placeholder-x";

async function through(chunks: string[]): Promise<string> {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(encoder.encode(chunk));
      c.close();
    },
  }).pipeThrough(redactStream(KEY, P));
  return await new Response(stream).text();
}

Deno.test("redactText() replaces the key as is and URL-encoded", () => {
  const location = `https://api.example/v1/chat?key=${encodeURIComponent(KEY)}&x=1`;
  assert.equal(redactText(location, KEY, P), `https://api.example/v1/chat?key=${P}&x=1`);
  assert.equal(redactText(`Bearer ${KEY}`, KEY, P), `Bearer ${P}`);
  assert.equal(redactText("nothing here", KEY, P), "nothing here");
  assert.equal(
    redactText(`Bearer ${KEY}`, null, P),
    `Bearer ${KEY}`,
    "a keyless provider has nothing to hide",
  );
});

Deno.test("redactStream() replaces a key split across chunks, at every split point", async () => {
  const body = `{"error":"Incorrect API key provided: ${KEY}. See ${KEY}"}`;
  for (let cut = 1; cut < body.length; cut++) {
    const out = await through([body.slice(0, cut), body.slice(cut)]);
    assert.ok(!out.includes(KEY), `leaked with a cut at ${cut}: ${out}`);
    assert.equal(out, body.split(KEY).join(P));
  }
  const oneByte = await through([...body]);
  assert.equal(oneByte, body.split(KEY).join(P));
});

Deno.test("redactStream() passes a body without the key through unchanged, tail included", async () => {
  assert.equal(await through(['data: {"a":1}\n\n', "data: [DONE]\n\n"]), 'data: {"a":1}\n\ndata: [DONE]\n\n');
  assert.equal(await through(["sk-live-a1/b2"]), "sk-live-a1/b2", "a prefix of the key is not the key");
});
