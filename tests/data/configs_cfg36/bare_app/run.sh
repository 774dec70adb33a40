#!/bin/bash
# written for cfg36's tests (near miss): an installer that ends by starting the user's demo app
pip install -r requirements.txt
python app.py
