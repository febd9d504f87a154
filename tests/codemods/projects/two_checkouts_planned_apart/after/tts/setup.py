from setuptools import setup

setup(name="tts")
