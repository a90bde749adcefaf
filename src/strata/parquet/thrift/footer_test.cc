#include "strata/parquet/thrift/footer.h"
#include <gtest/gtest.h>
