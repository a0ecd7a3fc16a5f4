from django import forms
from django.utils.translation import gettext_lazy as _


class ClassForm(forms.Form):
    name = forms.CharField(label=_("Class name"), max_length=80)


class JoinForm(forms.Form):
    code = forms.CharField(label=_("Join code"), max_length=20)
