/** The verbs of the loop, one file each: options in, lifecycle calls, a JSON-ready result out. */
export * from "./prepare.ts";
export * from "./run.ts";
export * from "./verify.ts";
export * from "./self_review.ts";
export * from "./revise.ts";
export * from "./approve.ts";
export * from "./integrate.ts";
export * from "./report.ts";
export * from "./cleanup.ts";
export * from "./recover.ts";
export * from "./query.ts";
export * from "../doctor/doctor.ts";
