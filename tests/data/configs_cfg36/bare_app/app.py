# written for cfg36's tests: a Gradio demo, no training
import gradio as gr


def answer(q):
    return q[::-1]


gr.Interface(fn=answer, inputs="text", outputs="text").launch()
