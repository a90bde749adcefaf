#!/usr/bin/env node
// S3 test server for strata's tests (see scripts/s3-test-server and src/strata/io/s3_test_server.h).
// s3rver, a filesystem-backed S3 emulator, runs behind a proxy on 127.0.0.1. The proxy
//  - verifies each request's AWS Signature V4 with AWS's own signer (@smithy/signature-v4),
//    because s3rver does not check V4 signatures at all;
//  - injects faults, latency and a bandwidth cap set through /__control/... (JSON);
//  - logs each request as a JSON line to STATE/requests.log;
//  - answers itself what s3rver 3.7.1 lacks or gets wrong: AbortMultipartUpload,
//    ListMultipartUploads, ListParts, UploadPart/Complete on an unknown upload (NoSuchUpload),
//    Complete's part checks and S3-style multipart ETags, ListObjectsV2 (s3rver's walks the
//    disk out of key order and its continuation tokens need DES, which Node 20 lacks),
//    suffix and "0-0" ranges, If-Match on GET/HEAD, and conditional writes.
//
// node s3-test-server.mjs --state DIR [--bucket NAME]... [--access-key K] [--secret S] [--region R]
//   [--session-token T] [--allow-anonymous] [--parent-pid PID] [--max-seconds N] [--min-part-size B]
// prints "PORT n" once ready. Control requests (unsigned, JSON, not logged):
//   GET  /__control/health                              {"ok":true}
//   POST /__control/faults {"rules":[RULE...]}          replaces the rules; GET shows them with
//        RULE: {"method","path_regex" (decoded path),"query" (regex, raw query),"times","skip",
//        "action":"status" ("status","code","message": an S3 XML error, not forwarded)
//                 |"drop" (connection reset, no answer) |"truncate" ("after_bytes": body cut)
//                 |"delay" ("delay_ms")}                "matched" and "fired" counts
//   POST /__control/network {"latency_ms","bandwidth_bytes_per_s"}  (0: none)
//   POST /__control/reset {"stats":bool}                clears faults and network (and stats)
//   GET  /__control/stats                               counts by method and status, failed
//                                                       verifications, bytes in and out
//   GET  /__control/uploads                             [{"bucket","key","uploadId","parts"}]
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Hash } from '@smithy/hash-node';
import { SignatureV4, getCanonicalHeaders } from '@smithy/signature-v4';
import S3rver from 's3rver';

const { values: opt } = parseArgs({
  options: {
    state: { type: 'string' },
    bucket: { type: 'string', multiple: true, default: [] },
    'access-key': { type: 'string', default: 'STRATATESTACCESSKEY' },
    secret: { type: 'string', default: 'strata-test-secret-key' },
    region: { type: 'string', default: 'us-east-1' },
    'session-token': { type: 'string' },
    'allow-anonymous': { type: 'boolean', default: false },
    'parent-pid': { type: 'string' },
    'max-seconds': { type: 'string', default: '3600' },
    'min-part-size': { type: 'string', default: String(5 * 1024 * 1024) },
  },
});
if (!opt.state) {
  process.stderr.write('usage: s3-test-server.mjs --state DIR [--bucket NAME]... [--access-key K] [--secret S]\n' +
    '  [--region R] [--session-token T] [--allow-anonymous] [--parent-pid PID] [--max-seconds N]\n' +
    '  [--min-part-size BYTES]\n');
  process.exit(2);
}
const stateDir = path.resolve(opt.state);
const dataDir = path.join(stateDir, 'data');
const logPath = path.join(stateDir, 'requests.log');
const minPartSize = Number(opt['min-part-size']);
fs.mkdirSync(dataDir, { recursive: true });

// ---------------------------------------------------------------------------------------------
// Errors, XML and small helpers

class S3Error extends Error {
  constructor(status, code, message, extra = {}) {
    super(message);
    Object.assign(this, { status, code, extra });
  }
}

const xmlEscape = (text) => String(text).replace(/[&<>"']/g,
  (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]);
const xmlUnescape = (text) => text.replace(/&(quot|apos|lt|gt|amp);/g,
  (_, name) => ({ quot: '"', apos: "'", lt: '<', gt: '>', amp: '&' })[name]);
const xmlTags = (fields) => Object.entries(fields)
  .filter(([, value]) => value !== undefined && value !== null)
  .map(([name, value]) => `<${name}>${xmlEscape(value)}</${name}>`).join('');
const xmlDocument = (body) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256Hex = (data) => createHash('sha256').update(data).digest('hex');
const md5Hex = (data) => createHash('md5').update(data).digest('hex');
// S3 orders keys by their UTF-8 bytes; JavaScript's < compares UTF-16 units.
const byteCompare = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));
// Whole seconds, as S3 and s3rver's GET/HEAD Last-Modified have them.
const isoSeconds = (date) => new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString();
const unquote = (etag) => etag.trim().replace(/^W\//, '').replace(/"/g, '');

function decodeOrThrow(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new S3Error(400, 'InvalidURI', `Couldn't parse the specified URI: ${text}`);
  }
}

function readBody(stream) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

// Query string -> { name: value | [values] }, decoded, in the shape the signer takes.
function parseQuery(rawQuery) {
  const query = {};
  for (const pair of rawQuery.split('&').filter(Boolean)) {
    const eq = pair.indexOf('=');
    const name = decodeOrThrow(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeOrThrow(pair.slice(eq + 1));
    if (!(name in query)) query[name] = value;
    else query[name] = [].concat(query[name], value);
  }
  return query;
}

// ---------------------------------------------------------------------------------------------
// Signature V4 verification

const credentials = { accessKeyId: opt['access-key'], secretAccessKey: opt.secret };
// uriEscapePath false: S3 signs the path as sent (each segment URI-encoded once, not twice);
// applyChecksum false: the payload hash is the client's x-amz-content-sha256, checked below.
const signer = new SignatureV4({
  credentials, region: opt.region, service: 's3', sha256: Hash.bind(null, 'sha256'),
  uriEscapePath: false, applyChecksum: false,
});

function parseAmzDate(text) {
  const m = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/.exec(text ?? '');
  return m ? new Date(Date.UTC(m[1], m[2] - 1, m[3], m[4], m[5], m[6])) : null;
}

// Throws an S3Error when the request is not signed right; returns true when signed, false when
// anonymous (and anonymous requests are allowed).
async function verify(req, rawPath, rawQuery, body) {
  const auth = req.headers.authorization;
  if (auth === undefined) {
    if (/(^|&)X-Amz-Signature=/.test(rawQuery)) {
      throw new S3Error(403, 'AccessDenied', 'Presigned (query string) requests are not supported by this test server');
    }
    if (opt['allow-anonymous']) return false;
    throw new S3Error(403, 'MissingSecurityHeader', 'Your request was missing a required header: Authorization');
  }
  const m = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) throw new S3Error(400, 'AuthorizationHeaderMalformed', `The authorization header is malformed: ${auth}`);
  const [, credential, signedList, signature] = m;
  const [accessKey, scopeDate, region, service, terminator, ...rest] = credential.split('/');
  if (accessKey !== credentials.accessKeyId) {
    throw new S3Error(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.',
      { AWSAccessKeyId: accessKey });
  }
  const amzDate = req.headers['x-amz-date'];
  const date = parseAmzDate(amzDate);
  if (!date) throw new S3Error(403, 'AccessDenied', 'AWS authentication requires a valid x-amz-date header (yyyyMMddTHHmmssZ)');
  // S3 answers scope errors with 400 AuthorizationHeaderMalformed, like this.
  if (scopeDate !== amzDate.slice(0, 8)) {
    throw new S3Error(400, 'AuthorizationHeaderMalformed', `Invalid credential date "${scopeDate}". This date is not the same as X-Amz-Date: "${amzDate.slice(0, 8)}".`);
  }
  if (region !== opt.region) {
    throw new S3Error(400, 'AuthorizationHeaderMalformed', `The authorization header is malformed; the region '${region}' is wrong; expecting '${opt.region}'`, { Region: opt.region });
  }
  if (service !== 's3' || terminator !== 'aws4_request' || rest.length > 0) {
    throw new S3Error(400, 'AuthorizationHeaderMalformed', `The authorization header is malformed; bad credential scope: ${credential}`);
  }
  if (Math.abs(Date.now() - date.getTime()) > 15 * 60 * 1000) {
    throw new S3Error(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.',
      { RequestTime: amzDate, ServerTime: new Date().toISOString() });
  }

  const signedNames = signedList.split(';');
  const signedSet = new Set(signedNames);
  if (!signedSet.has('host')) throw new S3Error(403, 'AccessDenied', 'The host header must be signed');
  if (signedSet.has('date')) {
    // The AWS signer always drops a Date header, so it cannot check one.
    throw new S3Error(403, 'SignatureDoesNotMatch', 'This test server cannot verify a signed Date header: sign X-Amz-Date instead');
  }
  const unsigned = Object.keys(req.headers).filter((name) => name.startsWith('x-amz-') && !signedSet.has(name));
  if (unsigned.length > 0) {
    throw new S3Error(403, 'AccessDenied', 'There were headers present in the request which were not signed',
      { HeadersNotSigned: unsigned.join(', ') });
  }

  const payloadHash = req.headers['x-amz-content-sha256'];
  if (payloadHash === undefined) {
    throw new S3Error(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  }
  if (payloadHash.startsWith('STREAMING-')) {
    throw new S3Error(501, 'NotImplemented', `This test server does not support ${payloadHash} (aws-chunked) uploads`);
  }
  if (payloadHash !== 'UNSIGNED-PAYLOAD') {
    const actual = sha256Hex(body);
    if (payloadHash !== actual) {
      throw new S3Error(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.",
        { ClientComputedContentSHA256: payloadHash, S3ComputedContentSHA256: actual });
    }
  }

  const token = req.headers['x-amz-security-token'];
  if (opt['session-token'] !== undefined ? token !== opt['session-token'] : token !== undefined) {
    throw new S3Error(403, 'InvalidToken', 'The provided token is malformed or otherwise invalid.');
  }

  // Rebuild the request from exactly the signed headers, the raw path and the query as received,
  // and sign it again with the known secret at the request's own date.
  const headers = {};
  for (const name of signedNames) {
    if (req.headers[name] === undefined) {
      throw new S3Error(403, 'SignatureDoesNotMatch', `The signed header "${name}" is not in the request`);
    }
    headers[name] = req.headers[name];
  }
  const request = { method: req.method, protocol: 'http:', hostname: '127.0.0.1', path: rawPath, query: parseQuery(rawQuery), headers };
  const signed = await signer.sign(request, { signingDate: date, signableHeaders: signedSet });
  const expected = /SignedHeaders=([^,]+), Signature=([0-9a-f]+)/.exec(signed.headers.authorization);
  if (expected[1] === signedList && expected[2] === signature) return true;

  // Like S3, tell what was signed: the canonical request and the string to sign.
  const canonicalRequest = signer.createCanonicalRequest(request, getCanonicalHeaders(request, undefined, signedSet), payloadHash);
  const stringToSign = await signer.createStringToSign(amzDate, `${scopeDate}/${region}/s3/aws4_request`, canonicalRequest, 'AWS4-HMAC-SHA256');
  throw new S3Error(403, 'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    { AWSAccessKeyId: accessKey, StringToSign: stringToSign, SignatureProvided: signature, CanonicalRequest: canonicalRequest });
}

// ---------------------------------------------------------------------------------------------
// s3rver's files: objects are DATA/BUCKET/DIRS/NAME._S3rver_object (+ .md5), uploads are
// DATA/BUCKET/._S3rver_uploads/UPLOADID/{key,metadata,N,N.md5}.

const OBJECT_SUFFIX = '._S3rver_object';
const UPLOADS_DIR = '._S3rver_uploads';

function objectFile(bucket, key) {
  const parts = key.split('/');
  const name = parts.pop();
  return path.join(dataDir, bucket, ...parts, name + OBJECT_SUFFIX);
}

function requireBucket(bucket) {
  if (!fs.existsSync(path.join(dataDir, bucket))) {
    throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist', { BucketName: bucket });
  }
}

function listObjectFiles(bucket) {
  const root = path.join(dataDir, bucket);
  const objects = [];
  const walk = (dir, prefix) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!(prefix === '' && entry.name === UPLOADS_DIR)) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
      } else if (entry.name.endsWith(OBJECT_SUFFIX)) {
        objects.push({ key: prefix + entry.name.slice(0, -OBJECT_SUFFIX.length), file: path.join(dir, entry.name) });
      }
    }
  };
  walk(root, '');
  return objects.sort((a, b) => byteCompare(a.key, b.key));
}

function readUpload(bucket, uploadId) {
  if (!/^[0-9a-f]+$/.test(uploadId)) return null;
  const dir = path.join(dataDir, bucket, UPLOADS_DIR, uploadId);
  try {
    const key = fs.readFileSync(path.join(dir, 'key'), 'utf8');
    // A part still being written (parts arrive concurrently) has no .md5 yet: not listed.
    const parts = fs.readdirSync(dir).filter((name) => /^\d+$/.test(name)).map(Number).sort((a, b) => a - b)
      .map((number) => {
        const file = path.join(dir, String(number));
        try {
          const md5 = fs.readFileSync(`${file}.md5`, 'utf8');
          const stat = fs.statSync(file);
          return { number, file, size: stat.size, mtime: stat.mtime, md5 };
        } catch (err) {
          if (err.code === 'ENOENT') return null;
          throw err;
        }
      })
      .filter((part) => part !== null);
    return { bucket, key, uploadId, dir, initiated: fs.statSync(dir).birthtime, parts };
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    throw err;
  }
}

function openUploads() {
  const uploads = [];
  for (const bucket of fs.readdirSync(dataDir)) {
    const dir = path.join(dataDir, bucket, UPLOADS_DIR);
    if (!fs.existsSync(dir)) continue;
    for (const uploadId of fs.readdirSync(dir)) {
      // A folder without its key file (left by a racing UploadPart) is reported too, key null.
      const upload = readUpload(bucket, uploadId);
      uploads.push({ bucket, key: upload?.key ?? null, uploadId, parts: upload?.parts.length ?? 0 });
    }
  }
  return uploads;
}

// ---------------------------------------------------------------------------------------------
// Operations the proxy answers itself

function listObjectsV2(bucket, q) {
  requireBucket(bucket);
  const prefix = q.prefix ?? '';
  const delimiter = q.delimiter ?? '';
  const maxKeys = Math.min(1000, q['max-keys'] === undefined ? 1000 : Number(q['max-keys']));
  if (!Number.isInteger(maxKeys) || maxKeys < 0) throw new S3Error(400, 'InvalidArgument', 'Provided max-keys not an integer or within integer range');
  let after = q['start-after'] ?? '';
  if (q['continuation-token'] !== undefined) {
    const token = Buffer.from(q['continuation-token'], 'base64url').toString('utf8');
    if (!token.startsWith(`${bucket}/`)) throw new S3Error(400, 'InvalidArgument', 'The continuation token provided is incorrect');
    after = token.slice(bucket.length + 1);
  }
  const urlEncode = q['encoding-type'] === 'url';
  const enc = (text) => (urlEncode ? encodeURIComponent(text).replace(/%2F/g, '/') : text);
  const contents = [];
  const prefixes = [];
  let last = null;
  let truncated = false;
  for (const object of listObjectFiles(bucket)) {
    const key = object.key;
    if (!key.startsWith(prefix) || byteCompare(key, after) <= 0) continue;
    const cut = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
    const commonPrefix = cut >= 0 ? key.slice(0, cut + delimiter.length) : null;
    if (commonPrefix !== null && (commonPrefix === last || byteCompare(commonPrefix, after) <= 0)) continue;
    if (contents.length + prefixes.length >= maxKeys) {
      truncated = maxKeys > 0;
      break;
    }
    if (commonPrefix !== null) {
      prefixes.push(commonPrefix);
      last = commonPrefix;
    } else {
      const stat = fs.statSync(object.file);
      const md5 = fs.readFileSync(`${object.file}.md5`, 'utf8');
      contents.push({ key, size: stat.size, mtime: stat.mtime, etag: `"${md5}"` });
      last = key;
    }
  }
  const xml = [
    '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
    xmlTags({ Name: bucket, Prefix: enc(prefix), Delimiter: delimiter ? enc(delimiter) : undefined, MaxKeys: maxKeys,
      KeyCount: contents.length + prefixes.length, IsTruncated: truncated,
      ContinuationToken: q['continuation-token'], StartAfter: q['start-after'] !== undefined ? enc(q['start-after']) : undefined,
      NextContinuationToken: truncated ? Buffer.from(`${bucket}/${last}`).toString('base64url') : undefined,
      EncodingType: urlEncode ? 'url' : undefined }),
    ...contents.map((c) => `<Contents>${xmlTags({ Key: enc(c.key), LastModified: isoSeconds(c.mtime), ETag: c.etag,
      Size: c.size, StorageClass: 'STANDARD' })}</Contents>`),
    ...prefixes.map((p) => `<CommonPrefixes>${xmlTags({ Prefix: enc(p) })}</CommonPrefixes>`),
    '</ListBucketResult>',
  ].join('');
  return { status: 200, headers: { 'content-type': 'application/xml' }, body: xmlDocument(xml) };
}

function listMultipartUploads(bucket, q) {
  requireBucket(bucket);
  const prefix = q.prefix ?? '';
  const uploads = openUploads().filter((u) => u.bucket === bucket && u.key !== null && u.key.startsWith(prefix))
    .map((u) => readUpload(bucket, u.uploadId)).filter(Boolean)
    .sort((a, b) => byteCompare(a.key, b.key) || a.initiated - b.initiated);
  const xml = [
    '<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
    xmlTags({ Bucket: bucket, KeyMarker: '', UploadIdMarker: '', Prefix: prefix, MaxUploads: 1000, IsTruncated: false }),
    ...uploads.map((u) => `<Upload>${xmlTags({ Key: u.key, UploadId: u.uploadId, Initiated: isoSeconds(u.initiated),
      StorageClass: 'STANDARD' })}</Upload>`),
    '</ListMultipartUploadsResult>',
  ].join('');
  return { status: 200, headers: { 'content-type': 'application/xml' }, body: xmlDocument(xml) };
}

function listParts(upload) {
  const xml = [
    '<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
    xmlTags({ Bucket: upload.bucket, Key: upload.key, UploadId: upload.uploadId, PartNumberMarker: 0, MaxParts: 1000,
      IsTruncated: false, StorageClass: 'STANDARD' }),
    ...upload.parts.map((p) => `<Part>${xmlTags({ PartNumber: p.number, LastModified: isoSeconds(p.mtime),
      ETag: `"${p.md5}"`, Size: p.size })}</Part>`),
    '</ListPartsResult>',
  ].join('');
  return { status: 200, headers: { 'content-type': 'application/xml' }, body: xmlDocument(xml) };
}

// Checks CompleteMultipartUpload's part list as S3 does (s3rver checks nothing) and returns the
// S3-style ETag of the result: MD5 of the parts' binary MD5s, "-", the part count.
function checkCompletion(upload, body) {
  const xml = body.toString('utf8');
  const field = (text, name) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(text)?.[1];
  const listed = [...xml.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => ({
    number: Number(field(m[1], 'PartNumber')), etag: unquote(xmlUnescape(field(m[1], 'ETag') ?? '')),
  }));
  if (listed.length === 0) throw new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema.');
  const stored = new Map(upload.parts.map((p) => [p.number, p]));
  listed.forEach((part, i) => {
    if (i > 0 && part.number <= listed[i - 1].number) {
      throw new S3Error(400, 'InvalidPartOrder', 'The list of parts was not in ascending order. Parts must be ordered by part number.');
    }
  });
  listed.forEach((part, i) => {
    const have = stored.get(part.number);
    if (!have || have.md5 !== part.etag) {
      throw new S3Error(400, 'InvalidPart', 'One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part\'s entity tag.',
        { PartNumber: part.number, ETag: part.etag });
    }
    if (i < listed.length - 1 && have.size < minPartSize) {
      throw new S3Error(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.',
        { PartNumber: part.number, ProposedSize: have.size, MinSizeAllowed: minPartSize });
    }
  });
  const digests = Buffer.concat(listed.map((p) => Buffer.from(p.etag, 'hex')));
  return `${md5Hex(digests)}-${listed.length}`;
}

// Conditional writes (PutObject, CompleteMultipartUpload): If-None-Match "*" and If-Match ETag,
// which s3rver ignores.
function checkWriteConditions(req, bucket, key) {
  const ifNoneMatch = req.headers['if-none-match'];
  const ifMatch = req.headers['if-match'];
  if (ifNoneMatch === undefined && ifMatch === undefined) return;
  let current = null;
  try {
    current = fs.readFileSync(`${objectFile(bucket, key)}.md5`, 'utf8');
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
  }
  if (ifNoneMatch !== undefined && ifNoneMatch.trim() === '*' && current !== null) {
    throw new S3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', { Condition: 'If-None-Match' });
  }
  if (ifMatch !== undefined && current === null) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', { Key: key });
  if (ifMatch !== undefined && unquote(ifMatch) !== current) {
    throw new S3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', { Condition: 'If-Match' });
  }
}

// Returns a complete answer, or null to forward to s3rver; `plan` collects what forwarding must
// do besides (ETag rewrite after Complete).
function ownOperation(req, bucket, key, q, body, plan) {
  if (!bucket) return null;
  const segments = key.split('/');
  if (segments.some((part, i) => part === '.' || part === '..' || (part === '' && i < segments.length - 1))) {
    // s3rver keeps a key as a file path, which would lose or escape with these.
    throw new S3Error(400, 'InvalidArgument', "This test server cannot store keys with '.', '..' or empty path segments");
  }
  if (key === '') {
    if (req.method === 'GET' && 'uploads' in q) return listMultipartUploads(bucket, q);
    if (req.method === 'GET' && q['list-type'] === '2') return listObjectsV2(bucket, q);
    return null;
  }
  if (req.method === 'PUT' && !('uploadId' in q)) checkWriteConditions(req, bucket, key);
  if (!('uploadId' in q)) return null;
  const upload = readUpload(bucket, String(q.uploadId));
  if (!upload || upload.key !== key) {
    throw new S3Error(404, 'NoSuchUpload', 'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
      { UploadId: q.uploadId });
  }
  if (req.method === 'DELETE') {  // AbortMultipartUpload: s3rver answers 405
    fs.rmSync(upload.dir, { recursive: true, force: true });
    return { status: 204, headers: {}, body: '' };
  }
  if (req.method === 'GET') return listParts(upload);  // s3rver answers 405
  if (req.method === 'POST') {
    checkWriteConditions(req, bucket, key);
    Object.assign(plan, { bucket, key, completedEtag: checkCompletion(upload, body) });
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Faults, network shaping, statistics, request log

let faults = [];
let network = { latency_ms: 0, bandwidth_bytes_per_s: 0 };
const newStats = () => ({ requests: 0, by_method: {}, by_status: {}, failed_verifications: 0, anonymous: 0,
  faults_fired: 0, bytes_in: 0, bytes_out: 0 });
let stats = newStats();
const publicRules = () => faults.map(({ pathRe, queryRe, ...rule }) => rule);

function setFaults(rules) {
  if (!Array.isArray(rules)) throw new Error('"rules" must be a list');
  return rules.map((rule) => {
    if (!['status', 'drop', 'truncate', 'delay'].includes(rule.action)) throw new Error(`unknown action ${rule.action}`);
    return {
      ...rule,
      pathRe: rule.path_regex !== undefined ? new RegExp(rule.path_regex) : null,
      queryRe: rule.query !== undefined ? new RegExp(rule.query) : null,
      matched: 0,
      fired: 0,
    };
  });
}

// The first rule that matches and still has shots left; `skip` lets its first N matches through.
function takeFault(method, decodedPath, rawQuery) {
  for (const rule of faults) {
    if (rule.method !== undefined && rule.method !== method) continue;
    if (rule.pathRe && !rule.pathRe.test(decodedPath)) continue;
    if (rule.queryRe && !rule.queryRe.test(rawQuery)) continue;
    rule.matched += 1;
    if (rule.matched <= (rule.skip ?? 0)) continue;
    if (rule.times !== undefined && rule.fired >= rule.times) continue;
    rule.fired += 1;
    return rule;
  }
  return null;
}

function record(entry) {
  stats.requests += 1;
  stats.by_method[entry.method] = (stats.by_method[entry.method] ?? 0) + 1;
  stats.by_status[entry.status] = (stats.by_status[entry.status] ?? 0) + 1;
  stats.bytes_in += entry.bytes_in;
  stats.bytes_out += entry.bytes_out;
  if (entry.auth === 'failed') stats.failed_verifications += 1;
  if (entry.auth === 'anonymous') stats.anonymous += 1;
  if (entry.fault) stats.faults_fired += 1;
  fs.appendFileSync(logPath, `${JSON.stringify(entry)}\n`);
}

// Writes `data`, waiting until it is handed to the socket (or the socket is gone).
function writeChunk(res, data) {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    const done = () => { res.off('close', done); resolve(); };
    res.once('close', done);
    res.write(data, done);
  });
}

// Sends `data` within the bandwidth cap; `sent` and `t0` carry the pace across calls.
async function paced(res, data, pace) {
  for (let at = 0; at < data.length && !res.destroyed;) {
    const rate = network.bandwidth_bytes_per_s;
    const step = rate > 0 ? Math.max(1, Math.min(64 * 1024, Math.floor(rate / 20))) : data.length;
    const slice = data.subarray(at, at + step);
    await writeChunk(res, slice);
    at += slice.length;
    pace.sent += slice.length;
    if (rate > 0) {
      const due = pace.t0 + (pace.sent / rate) * 1000;
      if (due > Date.now()) await sleep(due - Date.now());
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Forwarding to s3rver

let backendPort = 0;
const backendAgent = new http.Agent({ keepAlive: true });

function backendRequest(method, rawUrl, headers, body) {
  return new Promise((resolve, reject) => {
    const upstream = http.request({ host: '127.0.0.1', port: backendPort, method, path: rawUrl, headers, agent: backendAgent },
      resolve);
    upstream.on('error', reject);
    upstream.end(body);
  });
}

async function objectSize(rawUrl) {
  const head = await backendRequest('HEAD', rawUrl, {});
  head.resume();
  return head.statusCode === 200 ? Number(head.headers['content-length']) : null;
}

const SUBRESOURCES = /(^|&)(uploadId|partNumber|uploads|acl|tagging|versionId|list-type)(=|&|$)/;

function sendAnswer(res, entry, answer, req) {
  const body = Buffer.from(answer.body ?? '');
  entry.status = answer.status;
  const length = answer.status === 204 || answer.status === 304 ? {} : { 'content-length': body.length };
  res.writeHead(answer.status, { ...answer.headers, ...length });
  entry.bytes_out = req.method === 'HEAD' ? 0 : body.length;
  return new Promise((resolve) => res.end(req.method === 'HEAD' ? undefined : body, resolve));
}

function errorAnswer(err, rawPath) {
  const xml = `<Error>${xmlTags({ Code: err.code, Message: err.message, ...err.extra, Resource: rawPath,
    RequestId: 'STRATATEST' })}</Error>`;
  return { status: err.status, headers: { 'content-type': 'application/xml' }, body: xmlDocument(xml) };
}

async function forward(req, res, rawPath, rawQuery, body, entry, plan) {
  const headers = { ...req.headers, 'content-length': String(body.length) };
  for (const name of ['authorization', 'connection', 'keep-alive', 'transfer-encoding', 'expect']) delete headers[name];
  // s3rver reads a Range as "bytes=START-END" and mishandles "-N" (as 0-N) and "0-0" (as the
  // whole object), so it is asked for "START-" and the proxy cuts the answer to END.
  let rangeEnd = null;
  const isObjectRead = (req.method === 'GET' || req.method === 'HEAD') && !SUBRESOURCES.test(rawQuery);
  if (isObjectRead && headers.range !== undefined) {
    const m = /^bytes=(\d*)-(\d*)$/.exec(headers.range.trim());
    if (!m || (m[1] === '' && m[2] === '') || (m[1] !== '' && m[2] !== '' && Number(m[2]) < Number(m[1]))) {
      delete headers.range;  // S3 ignores a Range it does not take (e.g. several ranges): 200, whole object
    } else if (m[1] === '') {
      const size = await objectSize(rawPath + (rawQuery ? `?${rawQuery}` : ''));
      if (size === null) delete headers.range;  // let s3rver say NoSuchKey
      else if (Number(m[2]) === 0 || size === 0) throw new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable', { RangeRequested: req.headers.range, ActualObjectSize: size });
      else headers.range = `bytes=${Math.max(0, size - Number(m[2]))}-`;
    } else {
      if (m[2] !== '') rangeEnd = Number(m[2]);
      headers.range = `bytes=${Number(m[1])}-`;
    }
  }

  const rawUrl = rawPath + (rawQuery ? `?${rawQuery}` : '');
  const upstream = await backendRequest(req.method, rawUrl, headers, body);
  const outHeaders = { ...upstream.headers };
  for (const name of ['connection', 'keep-alive', 'transfer-encoding']) delete outHeaders[name];
  let limit = null;

  if (isObjectRead && (upstream.statusCode === 200 || upstream.statusCode === 206)) {
    const ifMatch = req.headers['if-match'];
    if (ifMatch !== undefined && !ifMatch.split(',').some((t) => t.trim() === '*' || unquote(t) === unquote(outHeaders.etag ?? ''))) {
      upstream.destroy();
      throw new S3Error(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', { Condition: 'If-Match' });
    }
    if (upstream.statusCode === 206) {
      const [, start, , total] = /bytes (\d+)-(\d+)\/(\d+)/.exec(outHeaders['content-range']).map(Number);
      if (start >= total) {  // s3rver answers 206 "bytes 0-0/0" for an empty object
        upstream.destroy();
        throw new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable', { RangeRequested: req.headers.range, ActualObjectSize: total });
      }
      const end = Math.min(rangeEnd ?? total - 1, total - 1);
      limit = end - start + 1;
      outHeaders['content-range'] = `bytes ${start}-${end}/${total}`;
      outHeaders['content-length'] = String(limit);
    }
  }

  if (plan.completedEtag && upstream.statusCode === 200) {
    // Give the object S3's multipart ETag: s3rver serves the ETag its .md5 file holds.
    const xml = (await readBody(upstream)).toString('utf8');
    fs.writeFileSync(`${objectFile(plan.bucket, plan.key)}.md5`, plan.completedEtag);
    const fixed = xml.replace(/<ETag>[^<]*<\/ETag>/, `<ETag>&quot;${plan.completedEtag}&quot;</ETag>`);
    delete outHeaders['content-length'];
    return sendAnswer(res, entry, { status: 200, headers: outHeaders, body: fixed }, req);
  }

  entry.status = upstream.statusCode;
  res.writeHead(upstream.statusCode, outHeaders);
  const pace = { t0: Date.now(), sent: 0 };
  let cut = plan.truncateAfter ?? null;  // "truncate" fault: close the connection after N body bytes
  for await (const chunk of upstream) {
    let data = limit !== null ? chunk.subarray(0, Math.max(0, limit - pace.sent)) : chunk;
    if (cut !== null && pace.sent + data.length >= cut) data = data.subarray(0, cut - pace.sent);
    await paced(res, data, pace);
    entry.bytes_out = pace.sent;
    if ((cut !== null && pace.sent >= cut) || (limit !== null && pace.sent >= limit) || res.destroyed) {
      upstream.destroy();  // the rest is not wanted
      break;
    }
  }
  if (cut !== null && pace.sent >= cut && req.method !== 'HEAD') {
    entry.fault = 'truncate';
    res.socket?.destroy();
    return;
  }
  await new Promise((resolve) => res.end(resolve));
}

// ---------------------------------------------------------------------------------------------
// The proxy

async function handleS3(req, res, rawPath, rawQuery) {
  const started = Date.now();
  const body = await readBody(req);
  const entry = { time: new Date(started).toISOString(), method: req.method, path: rawPath, query: rawQuery,
    range: req.headers.range ?? null, status: 0, bytes_in: body.length, bytes_out: 0, verified: false, auth: null };
  try {
    if (network.latency_ms > 0) await sleep(network.latency_ms);
    try {
      entry.verified = await verify(req, rawPath, rawQuery, body);
      entry.auth = entry.verified ? 'sigv4' : 'anonymous';
    } catch (err) {
      entry.auth = 'failed';
      throw err;
    }
    const segments = rawPath.split('/');
    const bucket = decodeOrThrow(segments[1] ?? '');
    const key = decodeOrThrow(segments.slice(2).join('/'));
    const plan = {};
    const fault = takeFault(req.method, decodeOrThrow(rawPath), rawQuery);
    if (fault) {
      entry.fault = fault.action;
      if (fault.action === 'drop') {  // a connection reset, no answer
        entry.status = 0;
        if (req.socket.resetAndDestroy) req.socket.resetAndDestroy(); else req.socket.destroy();
        return;
      }
      if (fault.action === 'status') {
        throw new S3Error(fault.status ?? 503, fault.code ?? 'SlowDown', fault.message ?? 'Injected by the test server');
      }
      if (fault.action === 'delay') await sleep(fault.delay_ms ?? 1000);
      if (fault.action === 'truncate') plan.truncateAfter = fault.after_bytes ?? 0;
    }
    const own = ownOperation(req, bucket, key, parseQuery(rawQuery), body, plan);
    if (own) await sendAnswer(res, entry, own, req);
    else await forward(req, res, rawPath, rawQuery, body, entry, plan);
  } catch (err) {
    const s3err = err instanceof S3Error ? err : new S3Error(500, 'InternalError', String(err?.stack ?? err));
    entry.error = s3err.code;
    if (res.headersSent) res.destroy();
    else await sendAnswer(res, entry, errorAnswer(s3err, rawPath), req);
  } finally {
    entry.ms = Date.now() - started;
    record(entry);
  }
}

async function handleControl(req, res, rawPath) {
  const reply = (status, value) => {
    const text = `${JSON.stringify(value)}\n`;
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  let input = {};
  try {
    const text = (await readBody(req)).toString('utf8');
    if (text.trim()) input = JSON.parse(text);
    switch (`${req.method} ${rawPath}`) {
      case 'GET /__control/health': return reply(200, { ok: true });
      case 'GET /__control/faults': return reply(200, { rules: publicRules() });
      case 'POST /__control/faults': faults = setFaults(input.rules); return reply(200, { rules: publicRules() });
      case 'GET /__control/network': return reply(200, network);
      case 'POST /__control/network':
        network = { latency_ms: Number(input.latency_ms ?? 0), bandwidth_bytes_per_s: Number(input.bandwidth_bytes_per_s ?? 0) };
        return reply(200, network);
      case 'POST /__control/reset':
        faults = [];
        network = { latency_ms: 0, bandwidth_bytes_per_s: 0 };
        if (input.stats) stats = newStats();
        return reply(200, { ok: true });
      case 'GET /__control/stats': return reply(200, stats);
      case 'GET /__control/uploads': return reply(200, openUploads());
      default: return reply(404, { error: `no control endpoint ${req.method} ${rawPath}` });
    }
  } catch (err) {
    return reply(400, { error: String(err.message ?? err) });
  }
}

function onRequest(req, res) {
  const q = req.url.indexOf('?');
  const rawPath = q < 0 ? req.url : req.url.slice(0, q);
  const rawQuery = q < 0 ? '' : req.url.slice(q + 1);
  const handler = rawPath.startsWith('/__control/') ? handleControl(req, res, rawPath) : handleS3(req, res, rawPath, rawQuery);
  handler.catch((err) => {
    process.stderr.write(`s3-test-server: ${err?.stack ?? err}\n`);
    res.destroy();
  });
}

// ---------------------------------------------------------------------------------------------
// Start, and stop by signal, when the parent dies, or after --max-seconds

const backend = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dataDir, vhostBuckets: false,
  configureBuckets: opt.bucket.map((name) => ({ name })) });
backendPort = (await backend.run()).port;

const proxy = http.createServer(onRequest);
proxy.keepAliveTimeout = 30_000;
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const pidFile = path.join(stateDir, 'server.pid');
fs.writeFileSync(pidFile, `${process.pid}\n`);
process.on('exit', () => fs.rmSync(pidFile, { force: true }));
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => process.exit(0));
process.stdout.write(`PORT ${proxy.address().port}\n`);

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));  // a zombie is gone
  } catch {
    return false;
  }
};
if (opt['parent-pid']) {
  const parent = Number(opt['parent-pid']);
  setInterval(() => { if (!alive(parent)) process.exit(0); }, 500).unref();
}
setTimeout(() => {
  process.stderr.write(`s3-test-server: --max-seconds ${opt['max-seconds']} reached, exiting\n`);
  process.exit(0);
}, Number(opt['max-seconds']) * 1000).unref();
