// Polars' side of scripts/bench-s3: the same three queries over the same S3 server, through
// Polars' own object-store client (nodejs-polars scanParquet with cloudOptions). Prints the rows.
//   node testing/s3/polars_s3_scan.mjs URL ENDPOINT full|projection|filter
import pl from 'nodejs-polars';

const [url, endpoint, query] = process.argv.slice(2);
const cloudOptions = {
  aws_access_key_id: process.env.AWS_ACCESS_KEY_ID, aws_secret_access_key: process.env.AWS_SECRET_ACCESS_KEY,
  aws_region: 'us-east-1', aws_endpoint_url: endpoint, aws_allow_http: 'true',
};
let frame = pl.scanParquet(url, { cloudOptions });
if (query !== 'full') frame = frame.select('l_orderkey', 'l_tax');
if (query === 'filter') frame = frame.filter(pl.col('l_orderkey').lt(200000));
const df = await frame.collect();
console.log(df.height);
