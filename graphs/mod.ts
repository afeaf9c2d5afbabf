/** Task graphs (`spot job`): the verbs and the coordinator the command table loads lazily. */
export { addTask, cancelJob, initJob, jobStatus, startJob } from "./verbs.ts";
export { waitJob } from "./admin/wait.ts";
export { coordinateJob } from "./coordinate.ts";
export { repairTask, retryLaunch } from "./repair.ts";
export { readStdin } from "./verbs.ts";
export { integrateJob } from "./integration/integrate.ts";
export { rollbackJob } from "./integration/rollback.ts";
export { noteJob } from "./admin/notes.ts";
export { barrierJob } from "./admin/barrier.ts";
export { unlockJob } from "./admin/unlock.ts";
export { cleanupJob } from "./admin/cleanup.ts";
export { gcJobs } from "./admin/gc.ts";
