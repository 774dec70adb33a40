#!/bin/bash
# written for cfg36's tests (near miss): two of the user's own training scripts run with no options, neither named
# like a training script: which one the question is about, the file does not say
python job_a.py
python job_b.py
