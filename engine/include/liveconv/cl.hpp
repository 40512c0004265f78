// The one place that configures OpenCL-CLHPP for the whole project: exceptions
// on, OpenCL 1.2 as both target and minimum so the same binary runs on PoCL,
// NVIDIA and older drivers.
#pragma once

#ifndef CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_ENABLE_EXCEPTIONS
#endif
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#endif

#include <CL/opencl.hpp>
