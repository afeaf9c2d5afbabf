/** `deno task schemas`: rewrite the JSON Schema files and the generated types from the zod sources. */
import { dirname, fromFileUrl, join } from "../../base/path.ts";
import { renderJsonSchemas, SKILL_SCHEMAS } from "./json_schemas.ts";
import { renderTypeFiles } from "./gen_types.ts";

/** schemas/, where the files go. */
const here = dirname(dirname(fromFileUrl(import.meta.url)));
const rendered = renderJsonSchemas();
for (const [name, text] of Object.entries(rendered)) {
  await Deno.writeTextFile(join(here, name), text);
  console.log(`wrote schemas/${name}`);
}
const skill = join(dirname(here), "skill", "schemas");
await Deno.mkdir(skill, { recursive: true });
for (const [name, source] of Object.entries(SKILL_SCHEMAS)) {
  await Deno.writeTextFile(join(skill, name), rendered[source]);
  console.log(`wrote skill/schemas/${name}`);
}
await Deno.mkdir(join(here, "gen"), { recursive: true });
for (const [name, text] of Object.entries(await renderTypeFiles())) {
  await Deno.writeTextFile(join(here, "gen", name), text);
  console.log(`wrote schemas/gen/${name}`);
}
