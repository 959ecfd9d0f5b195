// The benchmarks' upload: POST /api/file as a browser sends it, the file streamed from disk.
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';

/** POST /api/file as a browser sends it, the file streamed from disk (never in memory). */
export function streamUpload(port: number, headers: Record<string, string>, path: string): Promise<string> {
  const boundary = `----bench${Date.now().toString(16)}`;
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field('name', 'Bench upload') +
      field('answer_sheet_page_length', '0') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + statSync(path).size + tail.length;
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/file',
        headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length },
      },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          if (response.statusCode !== 201) reject(new Error(`upload answered ${response.statusCode}: ${body}`));
          else resolve((JSON.parse(body) as { id: string }).id);
        });
      },
    );
    request.on('error', reject);
    request.write(head);
    const stream = createReadStream(path);
    stream.on('error', reject);
    stream.on('end', () => request.end(tail));
    stream.pipe(request, { end: false });
  });
}
