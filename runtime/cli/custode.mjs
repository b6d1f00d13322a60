#!/usr/bin/env node
// The bin's former name, kept for what already names it (service units written by `custode
// service install`, hook settings copied from an older README): runtime/cli/custode.cjs is the bin.
import './custode.cjs';
