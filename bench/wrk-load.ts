// Load generator for bench/lists.ts: wrk (Debian's package), a C client whose CPU per request is
// a small fraction of a Node.js client's, so the two cores are left to the server under test.
// `clients` keep-alive connections on 2 threads request the given paths in turn for `seconds`;
// any status but 200 fails the run. Returns p50/p95 latency (ms), the number of requests and
// the CPU time wrk used (ms).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const THREADS = 2;

export interface WrkJob {
  base: string;
  cookie: string;
  paths: string[];
  clients: number;
  seconds: number;
}

export interface WrkResult {
  p50: number;
  p95: number;
  requests: number;
  cpuMs: number;
}

const lua = (job: WrkJob) => `
local paths = {${job.paths.map((p) => JSON.stringify(p)).join(',')}}
local sent, offset = 0, 0
function setup(thread) thread:set("offset", offset); offset = offset + 1 end
function init() offset = tonumber(wrk.thread:get("offset")) or 0 end
function request()
  sent = sent + 1
  return wrk.format("GET", paths[((sent - 1) * ${THREADS} + offset) % #paths + 1], { Cookie = ${JSON.stringify(job.cookie)} })
end
function response(status)
  if status ~= 200 then io.stderr:write("status " .. status .. "\\n"); os.exit(1) end
end
function done(summary, latency)
  io.write(string.format('{"p50":%.3f,"p95":%.3f,"requests":%d}\\n', latency:percentile(50) / 1000, latency:percentile(95) / 1000, summary.requests))
end
`;

export async function wrkLoad(job: WrkJob): Promise<WrkResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-wrk-'));
  try {
    const script = path.join(dir, 'paths.lua');
    await writeFile(script, lua(job));
    // bash's own timer gives the CPU wrk used (user and system seconds).
    const { stdout, stderr } = await run(
      'bash',
      [
        '-c',
        `command -v wrk >/dev/null || { echo 'wrk is not installed: apt-get install wrk' >&2; exit 127; }
         TIMEFORMAT='%U %S'; time wrk -t${THREADS} -c${job.clients} -d${job.seconds}s -s "$0" "$1"`,
        script,
        job.base,
      ],
      { maxBuffer: 1 << 24 },
    );
    const [user, system] = stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as Omit<WrkResult, 'cpuMs'>;
    return { ...result, cpuMs: (user! + system!) * 1000 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
