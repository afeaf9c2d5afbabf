/**
 * A package registry on 127.0.0.1 serving one small package, so a real `npm ci` can run in the test through
 * spot's egress proxy without reaching the internet. The tarball is packed here and its integrity computed,
 * like a registry's; `lockfile()` writes the package-lock.json a project depending on it would have.
 */
import { encodeBase64 } from "./base64.ts";
import { spawnProcess } from "../../sandbox/spawn.ts";

export const PACKAGE = "spot-fixture-math";
const VERSION = "1.0.0";

export interface Registry {
  port: number;
  /** Requests the registry saw, as `METHOD path`. */
  seen: string[];
  lockfile(project: string): string;
  close(): Promise<void>;
}

async function pack(dir: string): Promise<Uint8Array> {
  await Deno.mkdir(`${dir}/package`, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/package/package.json`,
    JSON.stringify({ name: PACKAGE, version: VERSION, main: "index.js" }),
  );
  await Deno.writeTextFile(`${dir}/package/index.js`, "exports.plus = (a, b) => a + b;\n");
  const r = await spawnProcess(["tar", "-czf", `${dir}/p.tgz`, "-C", dir, "package"], {
    env: { PATH: "/usr/bin:/bin" },
  });
  if (r.exitCode !== 0) throw new Error(`tar failed: ${r.stderr}`);
  return await Deno.readFile(`${dir}/p.tgz`);
}

export async function startRegistry(): Promise<Registry> {
  const dir = await Deno.makeTempDir({ prefix: "spot-registry-" });
  const tarball = await pack(dir);
  const integrity = `sha512-${
    encodeBase64(new Uint8Array(await crypto.subtle.digest("SHA-512", tarball as Uint8Array<ArrayBuffer>)))
  }`;
  const seen: string[] = [];
  let port = 0;
  const tarballUrl = () => `http://127.0.0.1:${port}/${PACKAGE}/-/${PACKAGE}-${VERSION}.tgz`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req): Response => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    if (path === `/${PACKAGE}/-/${PACKAGE}-${VERSION}.tgz`) {
      return new Response(tarball as Uint8Array<ArrayBuffer>);
    }
    if (path === `/${PACKAGE}`) {
      return Response.json({
        name: PACKAGE,
        "dist-tags": { latest: VERSION },
        versions: {
          [VERSION]: { name: PACKAGE, version: VERSION, dist: { tarball: tarballUrl(), integrity } },
        },
      });
    }
    return new Response("not found", { status: 404 });
  });
  port = server.addr.port;
  return {
    port,
    seen,
    lockfile: (project) =>
      JSON.stringify(
        {
          name: project,
          version: "1.0.0",
          lockfileVersion: 3,
          requires: true,
          packages: {
            "": { name: project, version: "1.0.0", dependencies: { [PACKAGE]: VERSION } },
            [`node_modules/${PACKAGE}`]: { version: VERSION, resolved: tarballUrl(), integrity },
          },
        },
        null,
        2,
      ) + "\n",
    close: async () => {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}
