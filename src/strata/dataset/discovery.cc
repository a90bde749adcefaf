#include "strata/dataset/discovery.h"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string_view>
#include <system_error>

#include "strata/io/location.h"

namespace strata::dataset {

namespace fs = std::filesystem;

namespace {

// A directory symlinked into itself must not walk forever; no real dataset nests this deep.
constexpr int kMaxDepth = 64;

bool HasWildcard(std::string_view segment) { return segment.find_first_of("*?[") != std::string_view::npos; }

// Spark and Hive write _SUCCESS, _metadata, _temporary/ and .crc files beside the data.
bool IsHiddenName(std::string_view name) { return !name.empty() && (name[0] == '.' || name[0] == '_'); }

bool HasParquetExtension(const fs::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".parquet" || ext == ".parq";
}

std::string Normal(const fs::path& path) { return path.lexically_normal().string(); }

// The directory names between `root` and `file`'s directory.
std::vector<std::string> SegmentsBetween(const fs::path& root, const fs::path& file) {
  std::vector<std::string> segments;
  const fs::path relative = file.parent_path().lexically_relative(root);
  for (const fs::path& part : relative) {
    const std::string name = part.string();
    if (name.empty() || name == ".") continue;
    segments.push_back(name);
  }
  return segments;
}

// The entries of `dir`, sorted by name, so walks are deterministic.
Result<std::vector<fs::directory_entry>> ListSorted(const fs::path& dir) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) return Status::IOError("dataset: cannot list directory '{}': {}", dir.string(), ec.message());
  std::vector<fs::directory_entry> entries;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) return Status::IOError("dataset: cannot list directory '{}': {}", dir.string(), ec.message());
    entries.push_back(*it);
  }
  if (ec) return Status::IOError("dataset: cannot list directory '{}': {}", dir.string(), ec.message());
  std::sort(entries.begin(), entries.end(),
            [](const fs::directory_entry& a, const fs::directory_entry& b) { return a.path() < b.path(); });
  return entries;
}

Status WalkDirectory(const fs::path& dir, int depth, std::vector<fs::path>* out) {
  if (depth > kMaxDepth)
    return Status::Invalid("dataset: directory '{}' nests deeper than {} levels", dir.string(), kMaxDepth);
  STRATA_ASSIGN_OR_RETURN(auto entries, ListSorted(dir));
  for (const fs::directory_entry& entry : entries) {
    if (IsHiddenName(entry.path().filename().string())) continue;
    std::error_code ec;
    if (entry.is_directory(ec)) {
      STRATA_RETURN_NOT_OK(WalkDirectory(entry.path(), depth + 1, out));
    } else if (entry.is_regular_file(ec) && HasParquetExtension(entry.path())) {
      out->push_back(entry.path());
    }
  }
  return Status::OK();
}

// Matches pattern segments [index, end) below `dir`, appending the files found.
Status MatchGlob(const fs::path& dir, const std::vector<std::string>& segments, size_t index, int depth,
                 std::vector<fs::path>* out) {
  if (depth > kMaxDepth)
    return Status::Invalid("dataset: directory '{}' nests deeper than {} levels", dir.string(), kMaxDepth);
  const std::string& segment = segments[index];
  const bool last = index + 1 == segments.size();
  std::error_code ec;
  if (segment == "**") {
    // Zero levels: the rest of the pattern right here (a trailing "**" means every file below).
    if (last) {
      std::vector<fs::path> below;
      STRATA_ASSIGN_OR_RETURN(auto entries, ListSorted(dir));
      for (const fs::directory_entry& entry : entries) {
        if (IsHiddenName(entry.path().filename().string())) continue;
        if (entry.is_directory(ec)) {
          STRATA_RETURN_NOT_OK(MatchGlob(entry.path(), segments, index, depth + 1, out));
        } else if (entry.is_regular_file(ec)) {
          out->push_back(entry.path());
        }
      }
      return Status::OK();
    }
    STRATA_RETURN_NOT_OK(MatchGlob(dir, segments, index + 1, depth, out));
    STRATA_ASSIGN_OR_RETURN(auto entries, ListSorted(dir));
    for (const fs::directory_entry& entry : entries) {
      if (IsHiddenName(entry.path().filename().string()) || !entry.is_directory(ec)) continue;
      STRATA_RETURN_NOT_OK(MatchGlob(entry.path(), segments, index, depth + 1, out));
    }
    return Status::OK();
  }
  if (!HasWildcard(segment)) {
    const fs::path next = dir / segment;
    if (last) {
      if (fs::is_regular_file(next, ec)) out->push_back(next);
      return Status::OK();
    }
    if (fs::is_directory(next, ec)) return MatchGlob(next, segments, index + 1, depth + 1, out);
    return Status::OK();
  }
  if (!fs::is_directory(dir, ec)) return Status::OK();
  STRATA_ASSIGN_OR_RETURN(auto entries, ListSorted(dir));
  const bool pattern_hidden = IsHiddenName(segment);
  for (const fs::directory_entry& entry : entries) {
    const std::string name = entry.path().filename().string();
    if (IsHiddenName(name) && !(pattern_hidden && name[0] == segment[0])) continue;
    if (fnmatch(segment.c_str(), name.c_str(), FNM_PERIOD) != 0) continue;
    if (last) {
      if (entry.is_regular_file(ec)) out->push_back(entry.path());
    } else if (entry.is_directory(ec)) {
      STRATA_RETURN_NOT_OK(MatchGlob(entry.path(), segments, index + 1, depth + 1, out));
    }
  }
  return Status::OK();
}

// Splits a pattern at '/', keeping a leading "/" as the root of an absolute pattern.
void SplitPattern(const std::string& pattern, std::string* root, std::vector<std::string>* wild_segments) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= pattern.size()) {
    const size_t slash = pattern.find('/', start);
    const size_t end = slash == std::string::npos ? pattern.size() : slash;
    if (end > start) parts.push_back(pattern.substr(start, end - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  fs::path fixed = !pattern.empty() && pattern[0] == '/' ? fs::path("/") : fs::path(".");
  size_t i = 0;
  for (; i < parts.size() && !HasWildcard(parts[i]); ++i) {
    // The last part names files even without a wildcard; it is only reached when an earlier
    // part has one, so a pattern always keeps at least one segment to match.
    if (i + 1 == parts.size()) break;
    fixed /= parts[i];
  }
  *root = Normal(fixed);
  wild_segments->assign(parts.begin() + static_cast<std::ptrdiff_t>(i), parts.end());
}

// The folder above `root`'s trailing key=value folders: 'data/year=2024/*.parquet' and the
// folder 'data/year=2024' keep year as a partition column, as DuckDB reads every key=value
// folder of a path.
fs::path PartitionRoot(const fs::path& root) {
  fs::path out = root;
  while (out.has_filename() && out.has_parent_path()) {
    const std::string name = out.filename().string();
    const size_t eq = name.find('=');
    if (eq == std::string::npos || eq == 0) break;
    out = out.parent_path();
  }
  return out;
}

// Splits "a/b//c" at '/', dropping empty parts.
std::vector<std::string> SplitKey(std::string_view key) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= key.size()) {
    const size_t slash = key.find('/', start);
    const size_t end = slash == std::string_view::npos ? key.size() : slash;
    if (end > start) parts.emplace_back(key.substr(start, end - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return parts;
}

// Whether key parts [k, end) match pattern segments [p, end): one part per segment, "**" any
// number of parts; hidden names only where the segment itself starts with their character.
bool MatchParts(const std::vector<std::string>& parts, size_t k, const std::vector<std::string>& pattern, size_t p) {
  if (p == pattern.size()) return k == parts.size();
  if (pattern[p] == "**") {
    for (size_t skip = k; skip <= parts.size(); ++skip) {
      if (MatchParts(parts, skip, pattern, p + 1)) return true;
      if (skip < parts.size() && IsHiddenName(parts[skip])) return false;
    }
    return false;
  }
  if (k == parts.size()) return false;
  const std::string& segment = pattern[p];
  if (IsHiddenName(parts[k]) && !(IsHiddenName(segment) && parts[k][0] == segment[0])) return false;
  if (fnmatch(segment.c_str(), parts[k].c_str(), FNM_PERIOD) != 0) return false;
  return MatchParts(parts, k + 1, pattern, p + 1);
}

// An s3:// folder ("s3://b/dir/") or glob ("s3://b/data/year=*/part-*.parquet"): one listing
// of the objects under the part before the first wildcard, matched here. Object stores have
// no folders, so "walking" a folder is a prefix listing; the rules are those of local folders
// and globs.
Status DiscoverObjects(const std::string& input, const StorageOptions& storage,
                       std::vector<std::pair<std::string, std::string>>* found) {
  const size_t scheme_end = input.find("://") + 3;
  const size_t bucket_end = input.find('/', scheme_end);
  const std::string bucket_url = input.substr(0, bucket_end == std::string::npos ? input.size() : bucket_end);
  const std::string key = bucket_end == std::string::npos ? "" : input.substr(bucket_end + 1);
  const std::vector<std::string> parts = SplitKey(key);
  size_t fixed = 0;
  while (fixed < parts.size() && !HasWildcard(parts[fixed])) ++fixed;
  const bool glob = fixed < parts.size();
  std::string prefix;
  for (size_t i = 0; i < fixed; ++i) prefix += parts[i] + "/";
  const std::string root = bucket_url + "/" + prefix;
  STRATA_ASSIGN_OR_RETURN(auto entries, ListObjectsUnder(bucket_url + "/" + prefix, storage));
  const std::vector<std::string> pattern(parts.begin() + static_cast<std::ptrdiff_t>(fixed), parts.end());
  for (const LocationEntry& entry : entries) {
    const std::vector<std::string> below = SplitKey(std::string_view(entry.location).substr(root.size()));
    if (below.empty()) continue;
    if (glob) {
      if (!MatchParts(below, 0, pattern, 0)) continue;
    } else {
      if (std::any_of(below.begin(), below.end(), [](const std::string& part) { return IsHiddenName(part); })) continue;
      if (!HasParquetExtension(below.back())) continue;
    }
    found->emplace_back(root, entry.location);
  }
  return Status::OK();
}

}  // namespace

bool IsGlob(const std::string& input) { return HasWildcard(input); }

bool IsObjectStoreDataset(const std::string& input) {
  return KindOfLocation(input) == LocationKind::kS3 && (IsGlob(input) || input.back() == '/' ||
                                                        input.find('/', 5) == std::string::npos);
}

Result<std::vector<DatasetFile>> DiscoverFiles(const std::vector<std::string>& inputs, const StorageOptions& storage) {
  if (inputs.empty()) return Status::Invalid("dataset: no input files or directories given");
  std::vector<DatasetFile> files;
  std::set<std::string> seen;
  auto add = [&](const fs::path& root, const fs::path& file, bool explicit_file) {
    std::string path = Normal(file);
    if (!seen.insert(path).second) return;
    DatasetFile out;
    const fs::path partition_root = PartitionRoot(root);
    out.root = explicit_file ? Normal(file.parent_path().empty() ? fs::path(".") : file.parent_path())
                             : Normal(partition_root);
    if (!explicit_file) out.segments = SegmentsBetween(partition_root, file);
    out.path = std::move(path);
    files.push_back(std::move(out));
  };
  for (const std::string& input : inputs) {
    if (input.empty()) return Status::Invalid("dataset: an input path is empty");
    if (KindOfLocation(input) == LocationKind::kS3) {
      if (!IsObjectStoreDataset(input)) {
        files.push_back({input, input.substr(0, input.rfind('/')), {}});  // one object
        continue;
      }
      std::vector<std::pair<std::string, std::string>> found;  // (root, location)
      STRATA_RETURN_NOT_OK(DiscoverObjects(input, storage, &found));
      if (found.empty()) {
        return Status::Invalid("dataset: no {} '{}'", IsGlob(input) ? "object matches the pattern" : "Parquet objects under",
                               input);
      }
      for (const auto& [root, location] : found) {
        if (!seen.insert(location).second) continue;
        // Partition columns: the key=value folders between the root (above its own trailing
        // key=value folders, as for local paths) and the object.
        std::vector<std::string> root_parts = SplitKey(std::string_view(root).substr(5));
        std::vector<std::string> parts = SplitKey(std::string_view(location).substr(5));
        size_t base = root_parts.size();
        while (base > 1 && root_parts[base - 1].find('=') != std::string::npos && root_parts[base - 1][0] != '=') --base;
        DatasetFile file;
        file.path = location;
        file.root = "s3://";
        for (size_t i = 0; i < base; ++i) file.root += (i == 0 ? "" : "/") + parts[i];
        file.segments.assign(parts.begin() + static_cast<std::ptrdiff_t>(base), parts.end() - 1);
        files.push_back(std::move(file));
      }
      continue;
    }
    std::error_code ec;
    std::vector<fs::path> found;
    if (IsGlob(input) && !fs::exists(input, ec)) {
      std::string root;
      std::vector<std::string> segments;
      SplitPattern(input, &root, &segments);
      STRATA_RETURN_NOT_OK(MatchGlob(root, segments, 0, 0, &found));
      if (found.empty()) return Status::Invalid("dataset: no file matches the pattern '{}'", input);
      std::sort(found.begin(), found.end());
      for (const fs::path& file : found) add(root, file, false);
      continue;
    }
    const fs::file_status status = fs::status(input, ec);
    if (ec || !fs::exists(status)) return Status::Invalid("dataset: no such file or directory: '{}'", input);
    if (fs::is_directory(status)) {
      STRATA_RETURN_NOT_OK(WalkDirectory(input, 0, &found));
      if (found.empty()) {
        return Status::Invalid("dataset: no Parquet files (*.parquet, *.parq) in directory '{}'", input);
      }
      std::sort(found.begin(), found.end());
      for (const fs::path& file : found) add(input, file, false);
    } else {
      add({}, input, true);
    }
  }
  return files;
}

}  // namespace strata::dataset
