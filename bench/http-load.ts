// Load generator for bench/lists.ts, in a process of its own (as real clients are): `clients`
// concurrent keep-alive connections request the given paths in turn until `count` requests are
// done. Reads one JSON job on stdin, prints the sorted latencies (ms) and the CPU time this
// process used (ms) as one JSON line.
import http from 'node:http';

interface Job {
  base: string;
  cookie: string;
  paths: string[];
  clients: number;
  count: number;
}

const job = JSON.parse(
  await new Response(process.stdin as unknown as ReadableStream).text(),
) as Job;
const agent = new http.Agent({ keepAlive: true, maxSockets: job.clients });

function get(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      job.base + path,
      { agent, headers: { cookie: job.cookie } },
      (response) => {
        response.resume();
        response.on('end', () =>
          response.statusCode === 200
            ? resolve()
            : reject(new Error(`${path}: ${response.statusCode}`)),
        );
      },
    );
    request.on('error', reject);
  });
}

const cpuBefore = process.cpuUsage();
const latencies: number[] = [];
let next = 0;
await Promise.all(
  Array.from({ length: job.clients }, async () => {
    while (next < job.count) {
      const path = job.paths[next++ % job.paths.length]!;
      const start = performance.now();
      await get(path);
      latencies.push(performance.now() - start);
    }
  }),
);
agent.destroy();
const cpu = process.cpuUsage(cpuBefore);
console.log(JSON.stringify({ latencies: latencies.sort((a, b) => a - b), cpuMs: (cpu.user + cpu.system) / 1000 }));
