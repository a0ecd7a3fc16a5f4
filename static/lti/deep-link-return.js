// Sends the chosen activity back to the school platform at once; without JavaScript
// the page's button does the same (tutor/lti/views.py, DeepLinkView).
document.addEventListener("DOMContentLoaded", function () {
  var form = document.getElementById("lti-deep-link-return");
  if (form) {
    form.submit();
  }
});
