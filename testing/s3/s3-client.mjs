#!/usr/bin/env node
// A small S3 client on AWS's own SDK (@aws-sdk/client-s3): the independent side of strata's S3
// tests, to put test data in place and check what strata wrote.
//
//   node testing/s3/s3-client.mjs --endpoint URL [credential flags] [--] COMMAND ARGS...
//     put BUCKET KEY LOCALFILE     get BUCKET KEY LOCALFILE     rm BUCKET KEY
//     list BUCKET [PREFIX]         (one "KEY<TAB>SIZE" line per object)
//     mb BUCKET
//     put-dir BUCKET PREFIX LOCALDIR   every regular file of LOCALDIR (not below) as PREFIX<name>
//   credential flags: --access-key K --secret S --region R [--session-token T] [--anonymous]
//   (defaults are the test server's); --max-attempts N (default 1: no silent retries).
// On failure prints the S3 error code and message to stderr and exits 1 (2 for bad usage).
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import {
  CreateBucketCommand, DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client,
} from '@aws-sdk/client-s3';

const usage = (message) => {
  process.stderr.write(`s3-client: ${message}\n`);
  process.exit(2);
};
let opt;
let args;
try {
  ({ values: opt, positionals: args } = parseArgs({
    allowPositionals: true,
    options: {
      endpoint: { type: 'string' },
      'access-key': { type: 'string', default: 'STRATATESTACCESSKEY' },
      secret: { type: 'string', default: 'strata-test-secret-key' },
      region: { type: 'string', default: 'us-east-1' },
      'session-token': { type: 'string' },
      anonymous: { type: 'boolean', default: false },
      'max-attempts': { type: 'string', default: '1' },
    },
  }));
} catch (err) {
  usage(err.message);  // an unknown flag, or a key starting with '-' not after '--'
}
if (!opt.endpoint) usage('--endpoint URL is required');

// The SDK warns on each run that its 2027 releases will need Node 22; tests read stderr.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const client = new S3Client({
  endpoint: opt.endpoint,
  region: opt.region,
  forcePathStyle: true,
  maxAttempts: Number(opt['max-attempts']),
  // Plain bodies with x-amz-content-sha256: no aws-chunked uploads or CRC trailers, which the
  // test server does not take.
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
  credentials: { accessKeyId: opt['access-key'], secretAccessKey: opt.secret, sessionToken: opt['session-token'] },
  ...(opt.anonymous ? { signer: { sign: async (request) => request } } : {}),
});

async function main([command, ...rest]) {
  const need = (count) => { if (rest.length < count) usage(`${command} needs ${count} arguments`); };
  switch (command) {
    case 'put': {
      need(3);
      const [Bucket, Key, file] = rest;
      await client.send(new PutObjectCommand({ Bucket, Key, Body: fs.readFileSync(file) }));
      return;
    }
    case 'get': {
      need(3);
      const [Bucket, Key, file] = rest;
      const answer = await client.send(new GetObjectCommand({ Bucket, Key }));
      await pipeline(answer.Body, fs.createWriteStream(file));
      return;
    }
    case 'list': {
      need(1);
      const [Bucket, Prefix] = rest;
      let ContinuationToken;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
        for (const object of page.Contents ?? []) process.stdout.write(`${object.Key}\t${object.Size}\n`);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return;
    }
    case 'rm':
      need(2);
      await client.send(new DeleteObjectCommand({ Bucket: rest[0], Key: rest[1] }));
      return;
    case 'put-dir': {
      need(3);
      const [Bucket, prefix, dir] = rest;
      const names = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name).sort();
      for (const name of names) {
        await client.send(new PutObjectCommand({ Bucket, Key: prefix + name, Body: fs.readFileSync(`${dir}/${name}`) }));
      }
      process.stdout.write(`${names.length}\n`);
      return;
    }
    case 'mb':
      need(1);
      await client.send(new CreateBucketCommand({ Bucket: rest[0] }));
      return;
    default:
      usage(`unknown command ${command ?? '(none)'}: put, put-dir, get, list, rm or mb`);
  }
}

try {
  await main(args);
} catch (err) {
  // The SDK names a service error after the S3 error code (NoSuchKey, SignatureDoesNotMatch...).
  const status = err.$metadata?.httpStatusCode;
  process.stderr.write(`${err.Code ?? err.name}: ${err.message}${status ? ` (HTTP ${status})` : ''}\n`);
  process.exit(1);
}
