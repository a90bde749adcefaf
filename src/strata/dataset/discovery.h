// Discovery: which Parquet files a dataset's inputs name (files, directories walked
// recursively, glob patterns), in a deterministic order, each with the directory segments
// between the root it was found under and the file (what hive partitioning reads).
// The first stage of the dataset layer (discovery -> partitioning -> schema unification ->
// dataset reader).
#pragma once

#include <string>
#include <vector>

#include "strata/io/location.h"
#include "strata/util/result.h"

namespace strata::dataset {

struct DatasetFile {
  // The file's path, as the input spelled it (joined with what the walk or glob found),
  // lexically normalised.
  std::string path;
  // The root the file was found under: the directory walked, or a glob's directory part
  // before its first wildcard segment; an explicitly named file's own directory.
  std::string root;
  // The directory names between `root` and the file, outermost first ("year=2024",
  // "month=05"); empty for an explicitly named file and for files directly under the root.
  std::vector<std::string> segments;
};

// Expands `inputs`, each one of:
//   - a file: taken whatever its name;
//   - a directory: walked recursively; files ending in .parquet or .parq are taken; names
//     starting with '.' or '_' (hidden files and directories, _SUCCESS, _metadata, .crc
//     files, _temporary/) are skipped, as Spark, Hive and DuckDB do;
//   - a glob (contains '*', '?' or '['): segments match with fnmatch(3) one directory level
//     each; a segment "**" matches any number of directory levels (zero included). Only files
//     match (a matched directory is not walked); names starting with '.' or '_' are skipped
//     unless the pattern segment itself starts with that character.
// Order: inputs in the order given; within a directory or glob, by path (plain
// lexicographic, which is natural order within a directory). A path reached twice is kept
// once, where first found. Fails (Invalid, naming the input) for an empty list, a path that
// does not exist, a directory without Parquet files, or a glob matching nothing; IOError when
// a directory cannot be listed.
// s3:// inputs follow the same rules: a prefix ending in '/' (or a bare bucket) is a folder,
// listed once (ListObjectsV2) and filtered; a glob lists the objects under the part before its
// first wildcard and matches the rest of each key; any other s3:// URL is one object.
Result<std::vector<DatasetFile>> DiscoverFiles(const std::vector<std::string>& inputs,
                                               const StorageOptions& storage = {});

// Whether an s3:// input names many objects (a folder or a glob) rather than one.
bool IsObjectStoreDataset(const std::string& input);

// Whether `input` is read as a glob pattern.
bool IsGlob(const std::string& input);

}  // namespace strata::dataset
