/** `deno task schemas`: rewrite the JSON Schema files from the zod sources. */
import { dirname, fromFileUrl, join } from "../base/path.ts";
import { renderJsonSchemas } from "./json_schemas.ts";

const here = dirname(fromFileUrl(import.meta.url));
for (const [name, text] of Object.entries(renderJsonSchemas())) {
  await Deno.writeTextFile(join(here, name), text);
  console.log(`wrote schemas/${name}`);
}
