// Tie-break chains: checked items are submitted in list order, so moving an item up or
// down reorders the chain the server receives.
document.addEventListener("click", (event) => {
  const button = event.target.closest(".chain-up, .chain-down");
  if (!button) return;
  const item = button.closest(".chain-item");
  if (button.classList.contains("chain-up") && item.previousElementSibling) {
    item.parentNode.insertBefore(item, item.previousElementSibling);
  } else if (button.classList.contains("chain-down") && item.nextElementSibling) {
    item.parentNode.insertBefore(item.nextElementSibling, item);
  }
  button.focus();
});
