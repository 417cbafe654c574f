from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def history_list(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def game_review(request: HttpRequest, code: str) -> HttpResponse:
    return render(request, "home.html")
