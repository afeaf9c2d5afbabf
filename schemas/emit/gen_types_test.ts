import assert from "node:assert/strict";
import { join } from "node:path";
import type { z } from "zod";
import { renderTypeFiles } from "./gen_types.ts";
import type * as Config from "../config.ts";
import type * as Events from "../events.ts";
import type * as Review from "../review_result.ts";
import type * as Self from "../self_review.ts";
import type * as Task from "../task_contract.ts";
import type * as Gen from "../gen/mod.ts";

Deno.test("the committed generated types match the zod schemas (run `deno task schemas` if not)", async () => {
  const here = new URL("..", import.meta.url).pathname;
  for (const [name, text] of Object.entries(await renderTypeFiles())) {
    const committed = await Deno.readTextFile(join(here, "gen", name)).catch(() => "(missing)");
    assert.equal(committed, text, `schemas/gen/${name} is stale`);
  }
});

/** True only when each type is assignable to the other: a field added, dropped or retyped on one side fails. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(_proof: Same<A, B>) => {};

Deno.test("each generated type is its zod schema's type, both ways (checked by the compiler)", () => {
  same<Gen.TaskContract, z.output<typeof Task.TaskContract>>(true);
  same<Gen.TaskContractInput, z.input<typeof Task.TaskContract>>(true);
  same<Gen.ReviewResult, z.output<typeof Review.ReviewResult>>(true);
  same<Gen.ReviewResultInput, z.input<typeof Review.ReviewResult>>(true);
  same<Gen.SelfReview, z.output<typeof Self.SelfReview>>(true);
  same<Gen.Config, z.output<typeof Config.Config>>(true);
  same<Gen.SpotEvent, z.output<typeof Events.SpotEvent>>(true);
  // The check can fail: a type missing a field is not the same.
  same<Omit<Gen.TaskContract, "goal">, z.output<typeof Task.TaskContract>>(false);
});
