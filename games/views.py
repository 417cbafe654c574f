from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")
