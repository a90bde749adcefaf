// The little XML S3 speaks: its answers (ListObjectsV2, CreateMultipartUpload, errors) are
// flat elements of text, so a scan for <Tag>...</Tag> is enough; no general XML parser.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace strata::s3 {

// The raw inner text of each <tag>...</tag> in `xml`, in order (not unescaped; nested
// elements come back as text).
std::vector<std::string_view> XmlElements(std::string_view xml, std::string_view tag);
// The first element's unescaped text, or "" when there is none.
std::string XmlFirst(std::string_view xml, std::string_view tag);
// &amp; &lt; &gt; &quot; &apos; and numeric references (&#38; &#x26;) back to UTF-8.
std::string XmlUnescape(std::string_view text);
// The five special characters escaped, for request bodies.
std::string XmlEscape(std::string_view text);

}  // namespace strata::s3
