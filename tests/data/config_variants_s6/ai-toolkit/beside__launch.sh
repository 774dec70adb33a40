cd ~/ai-toolkit && source venv/bin/activate && python run.py beside__ait_job.yaml
