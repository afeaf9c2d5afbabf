/** Checks an episode file at prepare time, so a typo fails before any worktree exists. */
import { SpotError } from "../errors.ts";
import { EpisodeError, OPS, parseEpisode } from "./episode.ts";

export async function validateEpisodeFile(path: string): Promise<void> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    throw new SpotError(
      "EPISODE_INVALID",
      `Cannot read replay episode "${path}": ${(error as Error).message}`,
    );
  }
  try {
    parseEpisode(text);
  } catch (error) {
    if (error instanceof EpisodeError) {
      throw new SpotError(
        "EPISODE_INVALID",
        `Cannot use replay episode "${path}": line ${error.line}: ${error.message}`,
        {
          details: {
            file: path,
            line: error.line,
            ...(error.message.startsWith("Unknown op")
              ? { hint: `an op is one of: ${Object.keys(OPS).join(", ")}` }
              : {}),
          },
        },
      );
    }
    throw error;
  }
}
